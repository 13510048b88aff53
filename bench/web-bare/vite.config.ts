// The app's build settings that shape what it sends (apps/web/vite.config.ts): the target and the
// .br/.gz files written beside each asset, so the server sends both pages the same way.
import { precompress } from '../../apps/web/precompress.ts';

export default { plugins: [precompress()], build: { target: 'es2022' } };

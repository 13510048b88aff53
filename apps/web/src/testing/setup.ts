import { afterEach } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import '../lib/i18n.ts';
import { disconnectSession } from '../lib/session-store.ts';
import { loadToasts } from '../lib/toasts.tsx';

// The app loads sonner after its first screen (lib/toasts.ts); a test starts with it loaded, as
// the app is once a toast has been shown, so an error toast is made in the same tick.
await loadToasts();

// findBy*/waitFor wait up to 5 s, not 1 s: CI shares two cores with the server tests, and a
// screen that loads its lists lazily can take over a second there. A test still fails when the
// element never comes.
configure({ asyncUtilTimeout: 5_000 });

afterEach(() => {
  cleanup();
  disconnectSession();
  localStorage.clear();
});

import { memberRoute } from './member-route.tsx';
import { ClosingReceiptScreen } from '../../features/parking/components/closing-receipt-screen.tsx';
import { paths } from '../../config/paths.ts';

export const Component = memberRoute(ClosingReceiptScreen, (t) => ({
  title: t('Receipt'),
  back: paths.homepage,
  message: t('Log in or register to see your parking sessions.'),
}));

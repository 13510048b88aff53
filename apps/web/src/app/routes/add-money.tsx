import { memberRoute } from './member-route.tsx';
import { AddMoneyScreen } from '../../features/account/components/add-money-screen.tsx';
import { paths } from '../../config/paths.ts';

export const Component = memberRoute(AddMoneyScreen, (t) => ({
  title: t('Add Money'),
  back: paths.account,
  message: t('Sign in to add money to your wallet.'),
}));

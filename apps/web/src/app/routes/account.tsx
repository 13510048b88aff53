import { memberRoute } from './member-route.tsx';
import { AccountScreen } from '../../features/account/components/account-screen.tsx';

/** Account (/account): the wallet. A guest gets the sign-in prompt. */
export const Component = memberRoute(AccountScreen, (t) => ({
  title: t('Account'),
  message: t('Sign in to see your wallet, cards and plan.'),
}));

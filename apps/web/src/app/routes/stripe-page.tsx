import { memberRoute } from './member-route.tsx';
import { StripePageScreen } from '../../features/account/components/stripe-page-screen.tsx';
import { paths } from '../../config/paths.ts';

export const Component = memberRoute(StripePageScreen, (t) => ({
  title: t('Add card'),
  back: paths.account,
  message: t('Sign in to save a payment card.'),
}));

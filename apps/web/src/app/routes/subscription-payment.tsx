import { memberRoute } from './member-route.tsx';
import { SubscriptionPaymentScreen } from '../../features/account/components/subscription-payment-screen.tsx';
import { paths } from '../../config/paths.ts';

/** The spec's subscription payment page (route not shown in the spec: /subscription/payment). */
export const Component = memberRoute(SubscriptionPaymentScreen, (t) => ({
  title: t('Payment'),
  back: paths.subscription,
  message: t('Sign in to choose a plan.'),
}));

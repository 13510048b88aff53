import { memberRoute } from './member-route.tsx';
import { SubscriptionScreen } from '../../features/account/components/subscription-screen.tsx';
import { paths } from '../../config/paths.ts';

export const Component = memberRoute(SubscriptionScreen, (t) => ({
  title: t('Subscription'),
  back: paths.homepage,
  message: t('Sign in to choose a plan.'),
}));

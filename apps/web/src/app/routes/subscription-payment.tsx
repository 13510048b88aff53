import { useTranslation } from '../../lib/i18n.ts';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { SubscriptionPaymentScreen } from '../../features/wallet/components/subscription-payment-screen.tsx';
import { paths } from '../../config/paths.ts';

/** The spec's subscription payment page (route not shown in the spec: /subscription/payment). */
export function Component() {
  const { t } = useTranslation();
  return (
    <MemberOnly screen={t('Payment')} back={paths.subscription} message={t('Sign in to choose a plan.')}>
      <SubscriptionPaymentScreen />
    </MemberOnly>
  );
}

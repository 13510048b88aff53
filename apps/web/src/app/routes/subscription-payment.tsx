import { useTranslation } from 'react-i18next';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { SubscriptionPaymentScreen } from '../../features/wallet/components/subscription-payment-screen.tsx';

/** The spec's subscription payment page (route not shown in the spec: /subscription/payment). */
export function Component() {
  const { t } = useTranslation();
  return (
    <MemberOnly message={t('Sign in to choose a plan.')}>
      <SubscriptionPaymentScreen />
    </MemberOnly>
  );
}

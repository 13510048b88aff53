import { useTranslation } from 'react-i18next';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { StripePageScreen } from '../../features/wallet/components/stripe-page-screen.tsx';

export function Component() {
  const { t } = useTranslation();
  return (
    <MemberOnly message={t('Sign in to save a payment card.')}>
      <StripePageScreen />
    </MemberOnly>
  );
}

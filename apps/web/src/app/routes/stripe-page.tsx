import { useTranslation } from '../../lib/i18n.ts';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { StripePageScreen } from '../../features/wallet/components/stripe-page-screen.tsx';
import { paths } from '../../config/paths.ts';

export function Component() {
  const { t } = useTranslation();
  return (
    <MemberOnly screen={t('Add card')} back={paths.account} message={t('Sign in to save a payment card.')}>
      <StripePageScreen />
    </MemberOnly>
  );
}

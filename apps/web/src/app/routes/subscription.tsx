import { useTranslation } from 'react-i18next';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { SubscriptionScreen } from '../../features/wallet/components/subscription-screen.tsx';

export function Component() {
  const { t } = useTranslation();
  return (
    <MemberOnly message={t('Sign in to choose a plan.')}>
      <SubscriptionScreen />
    </MemberOnly>
  );
}

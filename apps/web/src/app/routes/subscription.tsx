import { useTranslation } from '../../lib/i18n.ts';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { SubscriptionScreen } from '../../features/wallet/components/subscription-screen.tsx';
import { paths } from '../../config/paths.ts';

export function Component() {
  const { t } = useTranslation();
  return (
    <MemberOnly screen={t('Subscription')} back={paths.homepage} message={t('Sign in to choose a plan.')}>
      <SubscriptionScreen />
    </MemberOnly>
  );
}

import { useTranslation } from '../../lib/i18n.ts';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { AddMoneyScreen } from '../../features/wallet/components/add-money-screen.tsx';
import { paths } from '../../config/paths.ts';

export function Component() {
  const { t } = useTranslation();
  return (
    <MemberOnly screen={t('Add Money')} back={paths.account} message={t('Sign in to add money to your wallet.')}>
      <AddMoneyScreen />
    </MemberOnly>
  );
}

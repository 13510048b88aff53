import { useTranslation } from 'react-i18next';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { AddMoneyScreen } from '../../features/wallet/components/add-money-screen.tsx';

export function Component() {
  const { t } = useTranslation();
  return (
    <MemberOnly message={t('Sign in to add money to your wallet.')}>
      <AddMoneyScreen />
    </MemberOnly>
  );
}

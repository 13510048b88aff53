import { useTranslation } from '../../lib/i18n.ts';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { AccountScreen } from '../../features/wallet/components/account-screen.tsx';

/** Account (/account): the wallet (issue 10). A guest gets the sign-in prompt. */
export function Component() {
  const { t } = useTranslation();
  return (
    <MemberOnly screen={t('Account')} message={t('Sign in to see your wallet, cards and plan.')}>
      <AccountScreen />
    </MemberOnly>
  );
}

import { useTranslation } from 'react-i18next';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { ClosingReceiptScreen } from '../../features/parking/components/closing-receipt-screen.tsx';

export function Component() {
  const { t } = useTranslation();
  return (
    <MemberOnly message={t('Log in or register to see your parking sessions.')}>
      <ClosingReceiptScreen />
    </MemberOnly>
  );
}

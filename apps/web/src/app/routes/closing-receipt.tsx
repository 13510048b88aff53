import { useTranslation } from '../../lib/i18n.ts';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { ClosingReceiptScreen } from '../../features/parking/components/closing-receipt-screen.tsx';
import { paths } from '../../config/paths.ts';

export function Component() {
  const { t } = useTranslation();
  return (
    <MemberOnly screen={t('Receipt')} back={paths.homepage} message={t('Log in or register to see your parking sessions.')}>
      <ClosingReceiptScreen />
    </MemberOnly>
  );
}

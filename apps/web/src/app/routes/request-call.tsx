import { useTranslation } from '../../lib/i18n.ts';
import { Screen } from '../../components/layouts/screen.tsx';
import { paths } from '../../config/paths.ts';
import { RequestCallScreen } from '../../features/support/components/request-call-screen.tsx';

/** Request call back (/requestcall), spec section 2: back link to /supportpage. */
export function Component() {
  const { t } = useTranslation();
  return (
    <Screen title={t('Request call back')} back={paths.supportPage}>
      <RequestCallScreen />
    </Screen>
  );
}

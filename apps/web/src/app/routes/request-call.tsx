import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { paths } from '../../config/paths.ts';
import { RequestCallScreen } from '../../features/support/components/request-call-screen.tsx';

/** Request call back (/requestcall), spec section 2: back link to /supportpage. */
export function Component() {
  const { t } = useTranslation();
  return (
    <main className="flex flex-1 flex-col">
      <PageHeader title={t('Request call back')} back={paths.supportPage} />
      <div className="p-4">
        <RequestCallScreen />
      </div>
    </main>
  );
}

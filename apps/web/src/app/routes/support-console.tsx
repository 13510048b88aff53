import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { ConsoleScreen } from '../../features/support/components/console-screen.tsx';

/** The support console (/support-console, issue 13): an agent's landing page. */
export function Component() {
  const { t } = useTranslation();
  return (
    <main className="flex flex-1 flex-col">
      <PageHeader title={t('Support console')} />
      <div className="p-4">
        <ConsoleScreen />
      </div>
    </main>
  );
}

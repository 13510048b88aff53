import { useTranslation } from 'react-i18next';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { paths } from '../../config/paths.ts';
import { ChatScreen } from '../../features/support/components/chat-screen.tsx';

/** Support chat (/chatsupport), spec section 2: back link to /supportpage. */
export function Component() {
  const { t } = useTranslation();
  return (
    <main className="flex flex-1 flex-col">
      <PageHeader title={t('Support Chat')} back={paths.supportPage} />
      <div className="p-4">
        <ChatScreen />
      </div>
    </main>
  );
}

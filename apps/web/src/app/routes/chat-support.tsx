import { useTranslation } from '../../lib/i18n.ts';
import { Screen } from '../../components/layouts/screen.tsx';
import { paths } from '../../config/paths.ts';
import { ChatScreen } from '../../features/support/components/chat-screen.tsx';

/** Support chat (/chatsupport), spec section 2: back link to /supportpage. */
export function Component() {
  const { t } = useTranslation();
  return (
    <Screen title={t('Support Chat')} back={paths.supportPage}>
      <ChatScreen />
    </Screen>
  );
}

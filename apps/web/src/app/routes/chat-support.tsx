import { useTranslation } from '../../lib/i18n.ts';
import { MemberScreen } from '../../components/session/guest-prompt.tsx';
import { paths } from '../../config/paths.ts';
import { ChatScreen } from '../../features/support/components/chat-screen.tsx';

/** Support chat (/chatsupport), spec section 2: back link to /supportpage; a guest gets the sign-in prompt. */
export function Component() {
  const { t } = useTranslation();
  return (
    <MemberScreen title={t('Support Chat')} back={paths.supportPage} message={t('Call-back requests and chat need an account.')}>
      <ChatScreen />
    </MemberScreen>
  );
}

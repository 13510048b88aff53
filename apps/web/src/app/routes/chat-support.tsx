import { memberRoute } from './member-route.tsx';
import { paths } from '../../config/paths.ts';
import { ChatScreen } from '../../features/support/components/chat-screen.tsx';

/** Support chat (/chatsupport), docs/product.md#screens: back link to /supportpage; a guest gets the sign-in prompt. */
export const Component = memberRoute(
  ChatScreen,
  (t) => ({
    title: t('Support Chat'),
    back: paths.supportPage,
    message: t('Call-back requests and chat need an account.'),
  }),
  'route',
);

import { memberRoute } from './member-route.tsx';
import { paths } from '../../config/paths.ts';
import { RequestCallScreen } from '../../features/support/components/request-call-screen.tsx';

/** Request call back (/requestcall), docs/product.md#screens: back link to /supportpage; a guest gets the sign-in prompt. */
export const Component = memberRoute(
  RequestCallScreen,
  (t) => ({
    title: t('Request call back'),
    back: paths.supportPage,
    message: t('Call-back requests and chat need an account.'),
  }),
  'route',
);

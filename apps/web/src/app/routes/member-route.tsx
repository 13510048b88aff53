import type { ComponentType } from 'react';
import { useTranslation, type TFunction } from '../../lib/i18n.ts';
import { MemberOnly, MemberScreen } from '../../components/session/guest-prompt.tsx';

/** The screen's header (title, back link) and why a guest should sign in. */
interface RouteView {
  title: string;
  back?: string;
  message: string;
}

/**
 * The route module of a screen that needs a member's account: a guest, or a visitor whose
 * session is gone, gets the screen's header over the sign-in prompt, and none of the screen's
 * requests are made. `view` translates its texts with the `t` it is given, so each text stays a
 * literal call of t that the i18n test finds. `header`: 'screen' when the screen draws its own
 * (MemberOnly), 'route' when the route draws it for members too (MemberScreen).
 */
export function memberRoute(
  Screen: ComponentType,
  view: (t: TFunction) => RouteView,
  header: 'screen' | 'route' = 'screen',
): ComponentType {
  return function Component() {
    const { t } = useTranslation();
    const { title, back, message } = view(t);
    if (header === 'route') {
      return (
        <MemberScreen title={title} back={back} message={message}>
          <Screen />
        </MemberScreen>
      );
    }
    return (
      <MemberOnly screen={title} back={back} message={message}>
        <Screen />
      </MemberOnly>
    );
  };
}

import type { ComponentType } from 'react';
import { useTranslation, type TFunction } from '../../lib/i18n.ts';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';

/** What a guest sees in place of the screen: its header (title, back link) and why to sign in. */
interface GuestView {
  title: string;
  back?: string;
  message: string;
}

/**
 * The route module of a screen that needs a member's account (issue 7): a guest, or a visitor whose
 * session is gone, gets the screen's header over the sign-in prompt, and none of the screen's
 * requests are made. `guest` translates its texts with the `t` it is given, so each text stays a
 * literal call of t that the i18n test finds.
 */
export function memberRoute(Screen: ComponentType, guest: (t: TFunction) => GuestView): ComponentType {
  return function Component() {
    const { t } = useTranslation();
    const { title, back, message } = guest(t);
    return (
      <MemberOnly screen={title} back={back} message={message}>
        <Screen />
      </MemberOnly>
    );
  };
}

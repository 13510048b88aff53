import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n.ts';
import UserRoundPlus from 'lucide-react/icons/user-round-plus';
import { ButtonLink } from '../ui/button-link.tsx';
import { PageHeader } from '../ui/page-header.tsx';
import { Screen } from '../layouts/screen.tsx';
import { paths } from '../../config/paths.ts';
import { useSession } from '../../lib/session.ts';
import { endedSessionPath, replaceSession } from '../../lib/session-store.ts';

/**
 * What a guest sees where an account is needed: why, and the ways in. Never a raw
 * 'Unauthorized'. Login and Register first end the guest visit: /login sends anyone with the
 * guest flag back to /homepage (docs/product.md#screens).
 */
export function GuestPrompt({ message }: { message?: string | undefined }) {
  const { t } = useTranslation();
  const leave = () => replaceSession({});
  // The server ended a member's sign-in (expired or revoked): say so; /login returns here after.
  const ended = !useSession().guest && endedSessionPath() !== null;
  return (
    <section
      aria-labelledby="guest-prompt-title"
      className="m-4 flex flex-col items-center gap-3 rounded-2xl bg-white p-6 text-center shadow-sm"
    >
      <UserRoundPlus className="size-10 text-brand-700" aria-hidden />
      <h2 id="guest-prompt-title" className="text-lg font-semibold">
        {ended ? t('Your session has ended') : t('Sign in to continue')}
      </h2>
      <p className="text-sm text-slate-600">
        {ended
          ? t('Sign in again to continue where you left off.')
          : (message ?? t('Log in or register to park, pay and keep your vehicles.'))}
      </p>
      <div className="flex w-full gap-3">
        <ButtonLink to={paths.login} onClick={leave} className="flex-1">
          {t('Login')}
        </ButtonLink>
        <ButtonLink to={paths.register} onClick={leave} variant="secondary" className="flex-1">
          {t('Register')}
        </ButtonLink>
      </div>
    </section>
  );
}

/**
 * A screen (or part of one) that needs a member's account: a guest, or a visitor whose session
 * is gone, gets the GuestPrompt instead, and none of the children's requests are made. With
 * `screen` (a title, and `back`), the prompt is a whole screen: a main landmark under that
 * header, for children that draw their own (every route-level use: a guest's page needs its main
 * landmark and heading).
 */
export function MemberOnly({
  children,
  message,
  screen,
  back,
}: {
  children: ReactNode;
  message?: string;
  screen?: string;
  back?: string;
}) {
  const { member } = useSession();
  if (member) return children;
  if (!screen) return <GuestPrompt message={message} />;
  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PageHeader title={screen} back={back} />
      <GuestPrompt message={message} />
    </main>
  );
}

/**
 * A member-only screen under its header: what /myvehicles, /addvehicles and /editprofile are
 * made of. A guest sees the header and the sign-in prompt.
 */
export function MemberScreen({
  title,
  back,
  message,
  children,
}: {
  title: string;
  back?: string | undefined;
  message: string;
  children: ReactNode;
}) {
  return (
    <Screen title={title} back={back}>
      <MemberOnly message={message}>{children}</MemberOnly>
    </Screen>
  );
}

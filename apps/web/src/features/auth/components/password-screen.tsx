import type { ReactNode } from 'react';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useTranslation } from '../../../lib/i18n.ts';
import { useSession } from '../../../lib/session.ts';
import UserRoundPlus from 'lucide-react/icons/user-round-plus';
import { paths } from '../../../config/paths.ts';

/** Password screens for a guest, who has no password: point to registering instead. */
function GuestPasswordNotice() {
  const { t } = useTranslation();
  return (
    <section className="m-4 flex flex-col items-center gap-3 rounded-2xl bg-slate-50 p-6 text-center">
      <UserRoundPlus className="size-10 text-brand-700" aria-hidden />
      <h2 className="text-lg font-semibold">{t('You are browsing as a guest')}</h2>
      <p className="text-sm text-slate-600">
        {t('Guests have no password. Create an account to keep your vehicles and sessions.')}
      </p>
      <ButtonLink to={paths.register} className="px-5">
        {t('Register')}
      </ButtonLink>
    </section>
  );
}

/** /forgot and /resetpassword (protected): the title bar back to /profile, then the member's steps or, for a guest, the notice. */
export function PasswordScreen({ title, children }: { title: string; children: ReactNode }) {
  const member = Boolean(useSession().token);
  return (
    <main className="flex flex-1 flex-col">
      <PageHeader title={title} back={paths.profile} />
      {member ? <section className="flex flex-col gap-5 p-6">{children}</section> : <GuestPasswordNotice />}
    </main>
  );
}

import { LifeBuoy } from 'lucide-react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths.ts';

/** A guest has no account to call back or chat from: a sign-in prompt, never 'Unauthorized'. */
export function SupportGuestNotice() {
  const { t } = useTranslation();
  return (
    <section className="m-4 flex flex-col items-center gap-3 rounded-2xl bg-slate-50 p-6 text-center">
      <LifeBuoy className="size-10 text-brand-700" aria-hidden />
      <h2 className="text-lg font-semibold">{t('Sign in to contact support')}</h2>
      <p className="text-sm text-slate-600">{t('Call-back requests and chat need an account.')}</p>
      <div className="flex gap-2">
        <Link to={paths.login} className="inline-flex min-h-11 items-center rounded-xl bg-brand-700 px-5 text-sm font-semibold text-white hover:bg-brand-800">
          {t('Login')}
        </Link>
        <Link to={paths.register} className="inline-flex min-h-11 items-center rounded-xl px-5 text-sm font-semibold text-brand-800 ring-1 ring-brand-700">
          {t('Register')}
        </Link>
      </div>
    </section>
  );
}

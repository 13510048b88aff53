import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import Car from 'lucide-react/icons/car';
import Clock from 'lucide-react/icons/clock';
import LayoutDashboard from 'lucide-react/icons/layout-dashboard';
import LifeBuoy from 'lucide-react/icons/life-buoy';
import Timer from 'lucide-react/icons/timer';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { paths } from '../../../config/paths.ts';
import { useSession } from '../../../lib/session.ts';
import { continueAsGuest } from '../../../lib/session-store.ts';
import { ParkNowCard } from './park-now-card.tsx';

/**
 * /homepage (public): a greeting, Park Now, the active session and quick links. A visitor who is
 * neither signed in nor a guest is offered the ways in. `activeSession` is where the parking
 * screens put the running session; without one the empty state shows.
 */
export function HomeScreen({ activeSession }: { activeSession?: ReactNode }) {
  const { t } = useTranslation();
  const session = useSession();
  const { guest, member } = session;
  const firstName = session.user?.FirstName;

  const greeting = member
    ? t('Hello, {{name}}', { name: firstName || session.username || '' })
    : guest
      ? t('Hello, Guest')
      : t('Welcome to ParkIt');
  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <header className="bg-brand-700 px-5 pt-8 pb-14 text-white">
        <h1 className="text-2xl font-bold">{greeting}</h1>
        <p className="mt-1 text-sm text-brand-50/90">{t('Where are you parking today?')}</p>
      </header>
      <div className="-mt-10 flex flex-col gap-4 px-4 pb-6">
        <section aria-label={t('Park Now')} className="rounded-2xl bg-white p-4 shadow-md">
          {member || guest ? <ParkNowCard guest={guest} /> : <SignInPrompt />}
        </section>
        {member && (
          <>
            <section aria-labelledby="active-session-title" className="flex flex-col gap-2">
              <h2
                id="active-session-title"
                className="px-1 text-sm font-semibold tracking-wide text-slate-500 uppercase"
              >
                {t('Active Session')}
              </h2>
              {activeSession ?? (
                <div className="flex items-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white p-4">
                  <Timer className="size-8 shrink-0 text-slate-400" aria-hidden />
                  <div>
                    <p className="font-semibold text-slate-800">{t('No active parking session')}</p>
                    <p className="text-sm text-slate-500">{t('When you park, your time left shows here.')}</p>
                  </div>
                </div>
              )}
            </section>
            <QuickLinks />
          </>
        )}
      </div>
    </main>
  );
}

function QuickLinks() {
  const { t } = useTranslation();
  const links = [
    { to: paths.dashboard, icon: LayoutDashboard, label: t('Dashboard') },
    { to: paths.myVehicles, icon: Car, label: t('My Vehicles') },
    { to: paths.pastPark, icon: Clock, label: t('Past Parkings') },
    { to: paths.supportPage, icon: LifeBuoy, label: t('Support') },
  ];
  return (
    <nav aria-label={t('Quick links')}>
      <ul className="grid grid-cols-2 gap-3">
        {links.map(({ to, icon: Icon, label }) => (
          <li key={to}>
            <Link
              to={to}
              className="flex min-h-20 flex-col justify-center gap-2 rounded-2xl bg-white p-4 text-sm font-semibold text-slate-800 shadow-sm hover:bg-brand-50"
            >
              <Icon className="size-6 text-brand-700" aria-hidden />
              {label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** Signed out: the ways in, as on the landing page. */
function SignInPrompt() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-slate-600">{t('Log in or register to park, pay and keep your vehicles.')}</p>
      <div className="flex gap-3">
        <ButtonLink to={paths.login} className="flex-1">
          {t('Login')}
        </ButtonLink>
        <ButtonLink to={paths.register} variant="secondary" className="flex-1">
          {t('Register')}
        </ButtonLink>
      </div>
      <button
        type="button"
        onClick={() => void navigate(continueAsGuest())}
        className="min-h-11 text-sm font-medium text-slate-600 hover:underline"
      >
        {t('Continue as guest')}
      </button>
    </div>
  );
}

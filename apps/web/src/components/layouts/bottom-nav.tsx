import { useState } from 'react';
import { Link, NavLink, useLocation } from 'react-router';
import { useTranslation } from '../../lib/i18n.ts';
import Clock from 'lucide-react/icons/clock';
import House from 'lucide-react/icons/house';
import MapPin from 'lucide-react/icons/map-pin';
import UserRound from 'lucide-react/icons/user-round';
import Wallet from 'lucide-react/icons/wallet';
import { paths } from '../../config/paths.ts';
import { useSession } from '../../lib/session.ts';
import { replaceSession } from '../../lib/session-store.ts';

/** Why a tab waits, and where to go instead (shown when the inert tab is pressed). */
interface Why {
  text: string;
  to: string;
  label: string;
  /** Login ends the guest visit first: /login sends a guest back to /homepage. */
  leaveGuest?: boolean;
}

/**
 * docs/product.md#screens, five entries. Home and Profile always work; a guest's Past Parkings and Account
 * do nothing; Find Parking works only once client_id is present and not "0", and then stays on.
 * An inert tab, when pressed, says why and offers the way that works (sign in, Quick Park, support).
 */
let clientIdSeenValid = false;
/** Spec: once client_id was seen valid, Find Parking stays enabled. */
function findParkingEnabled(hasClientId: boolean): boolean {
  if (hasClientId) clientIdSeenValid = true;
  return clientIdSeenValid;
}

export function BottomNav() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const session = useSession();
  const guest = session.guest;
  const findEnabled = findParkingEnabled(session.hasClientId);
  const [why, setWhy] = useState<Why | null>(null);
  const signIn = { to: paths.login, label: t('Login'), leaveGuest: true };

  const items = [
    { to: paths.homepage, label: t('Home'), icon: House, enabled: true, why: null },
    {
      to: paths.pastPark,
      label: t('Past Parkings'),
      icon: Clock,
      enabled: !guest,
      also: [paths.mapPage],
      why: { text: t('Past Parkings needs an account. Log in or register to keep your receipts.'), ...signIn },
    },
    {
      to: paths.account,
      label: t('Account'),
      icon: Wallet,
      enabled: !guest,
      why: { text: t('Your wallet and cards need an account. Log in or register to use them.'), ...signIn },
    },
    {
      to: paths.findParking,
      label: t('Find Parking'),
      icon: MapPin,
      enabled: findEnabled,
      also: [paths.findParkingMap],
      why: guest
        ? {
            text: t('Guests park with Quick Park: just a mobile number and a plate.'),
            to: paths.quickParkRegister,
            label: t('Quick Park'),
          }
        : {
            text: t('Parking is not set up for your account yet. Please contact support.'),
            to: paths.supportPage,
            label: t('Support'),
          },
    },
    { to: paths.profile, label: t('Profile'), icon: UserRound, enabled: true, why: null },
  ];
  // One line per label, in Hindi too: no wrapping, a step smaller where the words are longer.
  // Spanish labels may take a second line rather than widen their tab.
  const cls =
    'flex min-h-14 min-w-0 flex-1 flex-col items-center justify-center gap-0.5 px-0.5 text-center text-[11px] leading-tight font-medium whitespace-nowrap [html[lang=es]_&]:whitespace-normal [html[lang=hi]_&]:text-[10px]';
  return (
    <nav
      aria-label={t('Main')}
      className="sticky bottom-0 z-20 border-t border-slate-200 bg-white pb-[env(safe-area-inset-bottom)]"
    >
      <div role="status" className={why ? 'border-b border-slate-200 bg-brand-50 px-4 py-2 text-sm' : 'sr-only'}>
        {why && (
          <p className="text-slate-800">
            {why.text}{' '}
            <Link
              to={why.to}
              onClick={() => {
                if (why.leaveGuest) replaceSession({});
                setWhy(null);
              }}
              className="inline-flex min-h-11 items-center font-semibold text-brand-700 underline"
            >
              {why.label}
            </Link>
          </p>
        )}
      </div>
      <ul className="flex">
        {items.map(({ to, label, icon: Icon, enabled, also, why: because }) => (
          <li key={to} className="flex flex-1">
            {enabled ? (
              <NavLink
                to={to}
                // The list/map pairs share one tab.
                className={({ isActive }) =>
                  `${cls} ${isActive || also?.includes(pathname as never) ? 'text-brand-700' : 'text-slate-500 hover:text-slate-800'}`
                }
              >
                <Icon className="size-5" aria-hidden />
                {label}
              </NavLink>
            ) : (
              // Present but inert, as the spec has it; announced as unavailable, and says why when pressed.
              <button
                type="button"
                aria-disabled="true"
                className={`${cls} cursor-default text-slate-400`}
                onClick={(e) => {
                  e.preventDefault();
                  setWhy(because);
                }}
              >
                <Icon className="size-5" aria-hidden />
                {label}
              </button>
            )}
          </li>
        ))}
      </ul>
    </nav>
  );
}

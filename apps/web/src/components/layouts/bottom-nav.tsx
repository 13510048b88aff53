import { NavLink, useLocation } from 'react-router';
import { useTranslation } from '../../lib/i18n.ts';
import Clock from 'lucide-react/icons/clock';
import House from 'lucide-react/icons/house';
import MapPin from 'lucide-react/icons/map-pin';
import UserRound from 'lucide-react/icons/user-round';
import Wallet from 'lucide-react/icons/wallet';
import { paths } from '../../config/paths.ts';
import { useSession } from '../../lib/session.ts';

/**
 * docs/product.md#screens, five entries. Home and Profile always work; a guest's Past Parkings and Account
 * do nothing; Find Parking works only once client_id is present and not "0", and then stays on.
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

  const items = [
    { to: paths.homepage, label: t('Home'), icon: House, enabled: true },
    { to: paths.pastPark, label: t('Past Parkings'), icon: Clock, enabled: !guest, also: [paths.mapPage] },
    { to: paths.account, label: t('Account'), icon: Wallet, enabled: !guest },
    {
      to: paths.findParking,
      label: t('Find Parking'),
      icon: MapPin,
      enabled: findEnabled,
      also: [paths.findParkingMap],
    },
    { to: paths.profile, label: t('Profile'), icon: UserRound, enabled: true },
  ];
  // One line per label, in Hindi too (issue 7): no wrapping, a step smaller where the words are longer.
  const cls =
    'flex min-h-14 min-w-0 flex-1 flex-col items-center justify-center gap-0.5 px-0.5 text-[11px] leading-tight font-medium whitespace-nowrap [html[lang=hi]_&]:text-[10px]';
  return (
    <nav
      aria-label={t('Main')}
      className="sticky bottom-0 z-20 border-t border-slate-200 bg-white pb-[env(safe-area-inset-bottom)]"
    >
      <ul className="flex">
        {items.map(({ to, label, icon: Icon, enabled, also }) => (
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
              // Present but inert, as the spec has it; announced as unavailable.
              <button
                type="button"
                aria-disabled="true"
                className={`${cls} cursor-default text-slate-300`}
                onClick={(e) => e.preventDefault()}
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

import { Link, useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import Car from 'lucide-react/icons/car';
import ReceiptText from 'lucide-react/icons/receipt-text';
import BadgeCheck from 'lucide-react/icons/badge-check';
import ChevronRight from 'lucide-react/icons/chevron-right';
import KeyRound from 'lucide-react/icons/key-round';
import LifeBuoy from 'lucide-react/icons/life-buoy';
import LogIn from 'lucide-react/icons/log-in';
import { Button } from '../../../components/ui/button.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { useSession } from '../../../lib/session.ts';
import { replaceSession } from '../../../lib/session-store.ts';
import { useAccountDetails } from '../../../lib/account-details.ts';
import { LanguageSwitch } from '../../../components/ui/language-switch.tsx';
import { LeaveAccountCard } from './leave-account-card.tsx';
import { LogoutButton } from './logout-button.tsx';
import { MemberCard } from './member-card.tsx';
import { ParkingOptionsCard } from './parking-options-card.tsx';
import { RemindersCard } from './reminders-card.tsx';

/**
 * /profile, headed 'Account' (docs/product.md#screens). A member gets the card with EDIT, Default Parking
 * Options, My Vehicles, Support and Logout; a guest only 'Guest User'. Both get the language.
 */
export function ProfileScreen() {
  const { t } = useTranslation();
  const session = useSession();
  const member = session.member;
  // Reloaded on every visit: the session's user follows it (Edit Profile updates it too).
  useAccountDetails({ enabled: member, fresh: true });
  const user = member ? session.user : null;

  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PageHeader title={t('Account')} />
      <div className="flex flex-col gap-4 p-4">
        {member && !user ? (
          <Skeleton rows={3} />
        ) : member && user ? (
          <>
            <MemberCard user={user} />
            <ParkingOptionsCard />
            <RemindersCard />
            <nav
              aria-label={t('Account')}
              className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm"
            >
              <ul className="divide-y divide-slate-100">
                <RowLink to={paths.myVehicles} icon={Car} label={t('My Vehicles')} />
                <RowLink to={paths.citations} icon={ReceiptText} label={t('Citations')} />
                <RowLink to={paths.permits} icon={BadgeCheck} label={t('Permits')} />
                <RowLink to={paths.supportPage} icon={LifeBuoy} label={t('Support')} />
                <RowLink to={paths.forgot} icon={KeyRound} label={t('Change Password')} />
              </ul>
            </nav>
            <LanguageSwitch />
            <LogoutButton />
            <LeaveAccountCard />
          </>
        ) : (
          <>
            <MemberCard user={null} />
            <GuestSignIn />
            <LanguageSwitch />
          </>
        )}
      </div>
    </main>
  );
}

function RowLink({ to, icon: Icon, label }: { to: string; icon: typeof Car; label: string }) {
  return (
    <li>
      <Link
        to={to}
        className="flex min-h-14 items-center gap-3 px-4 text-sm font-medium text-slate-800 hover:bg-slate-50"
      >
        <Icon className="size-5 text-brand-700" aria-hidden />
        <span className="flex-1">{label}</span>
        <ChevronRight className="size-4 text-slate-400" aria-hidden />
      </Link>
    </li>
  );
}

/** A guest's way back to the landing page, where Login and Register are. */
function GuestSignIn() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // The guest flag goes (the chosen language stays: this is not a logout).
  const leave = () => {
    replaceSession({});
    void navigate(paths.parkit, { replace: true });
  };
  return (
    <section className="flex flex-col gap-3 rounded-2xl bg-brand-50 p-4">
      <p className="text-sm text-slate-700">
        {t('Sign in to save your vehicles, pay from your wallet and see past sessions.')}
      </p>
      <Button onClick={leave}>
        <LogIn className="size-4" aria-hidden />
        {t('Login or Register')}
      </Button>
    </section>
  );
}

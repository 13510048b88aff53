import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import Car from 'lucide-react/icons/car';
import { BalanceCard } from '../../../components/ui/balance-card.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { StatCard } from '../../../components/ui/panel.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { GuestPrompt } from '../../../components/session/guest-prompt.tsx';
import { useSession } from '../../../lib/session.ts';
import { useAccountDetails } from '../../../lib/account-details.ts';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { useMoney } from '../../../lib/money.ts';

/** /dashboard: the balance ($, two decimals) and the vehicle count from GET /api/Account/Details. */
export function DashboardScreen() {
  const { t } = useTranslation();
  const money = useMoney();
  const { member } = useSession();
  const details = useAccountDetails({ enabled: member, live: true });

  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PageHeader title={t('Dashboard')} />
      <div className="flex flex-col gap-4 p-4">
        {!member ? (
          <GuestPrompt message={t('Log in to see your balance and vehicles.')} />
        ) : (
          <Loaded
            query={details}
            skeleton={<Skeleton rows={2} className="h-32" />}
            failed={t('Your account could not be loaded.')}
          >
            {(data) => (
              <>
                <BalanceCard balance={money(data.Balance)}>
                  <p className="mt-1 text-sm text-brand-50/90">
                    {t('Minimum Trigger Amount')}: {money(data.MinBalance)}
                  </p>
                </BalanceCard>
                <StatCard
                  icon={<Car className="size-8 shrink-0 text-brand-700" aria-hidden />}
                  title={t('Vehicles')}
                  value={data.VehicleCount}
                  testId="vehicle-count"
                  action={
                    <Link
                      to={paths.myVehicles}
                      className="min-h-11 content-center text-sm font-semibold text-brand-700 hover:underline"
                    >
                      {t('My Vehicles')}
                    </Link>
                  }
                />
              </>
            )}
          </Loaded>
        )}
      </div>
    </main>
  );
}

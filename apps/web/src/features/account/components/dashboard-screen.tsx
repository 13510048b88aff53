import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { Car, Plus, Wallet } from 'lucide-react';
import { formatMoney } from '@parkit/contract';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { GuestPrompt } from '../../../components/session/guest-prompt.tsx';
import { useSession } from '../../../lib/session.ts';
import { useAccountDetails } from '../api/get-account-details.ts';
import { LoadError } from '../../../components/ui/load-error.tsx';

/** /dashboard: the balance ($, two decimals) and the vehicle count from GET /api/Account/Details. */
export function DashboardScreen() {
  const { t } = useTranslation();
  const { member } = useSession();
  const details = useAccountDetails(member, { live: true });

  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PageHeader title={t('Dashboard')} />
      <div className="flex flex-col gap-4 p-4">
        {!member ? (
          <GuestPrompt message={t('Log in to see your balance and vehicles.')} />
        ) : details.isPending ? (
          <Skeleton rows={2} className="h-32" />
        ) : details.isError ? (
          <LoadError message={t('Your account could not be loaded.')} retrying={details.isFetching} onRetry={() => void details.refetch()} />
        ) : (
          <>
            <section aria-labelledby="balance-title" className="rounded-2xl bg-brand-700 p-5 text-white shadow-md">
              <h2 id="balance-title" className="flex items-center gap-2 text-sm font-medium text-brand-50">
                <Wallet className="size-4" aria-hidden />
                {t('Current Balance')}
              </h2>
              <p className="mt-2 text-4xl font-bold tabular-nums" data-testid="balance">
                {details.data.CurrencySymbol}
                {formatMoney(details.data.Balance)}
              </p>
              <p className="mt-1 text-sm text-brand-50/90">
                {t('Minimum Trigger Amount')}: {details.data.CurrencySymbol}
                {formatMoney(details.data.MinBalance)}
              </p>
              <Link
                to={paths.addMoney}
                className="mt-4 inline-flex min-h-11 items-center gap-2 rounded-xl bg-white px-4 text-sm font-semibold text-brand-800 hover:bg-brand-50"
              >
                <Plus className="size-4" aria-hidden />
                {t('ADD MONEY')}
              </Link>
            </section>
            <section aria-labelledby="vehicles-title" className="flex items-center gap-4 rounded-2xl bg-white p-5 shadow-sm">
              <Car className="size-8 text-brand-700" aria-hidden />
              <div className="flex-1">
                <h2 id="vehicles-title" className="text-sm font-medium text-slate-500">
                  {t('Vehicles')}
                </h2>
                <p className="text-2xl font-bold tabular-nums" data-testid="vehicle-count">
                  {details.data.VehicleCount}
                </p>
              </div>
              <Link to={paths.myVehicles} className="min-h-11 content-center text-sm font-semibold text-brand-700 hover:underline">
                {t('My Vehicles')}
              </Link>
            </section>
          </>
        )}
      </div>
    </main>
  );
}

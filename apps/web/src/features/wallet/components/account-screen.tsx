import { useTranslation } from 'react-i18next';
import { Crown, Plus, Wallet } from 'lucide-react';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { LoadError } from '../../../components/ui/load-error.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { useAccountDetails } from '../api/account.ts';
import { money } from '../lib/money.ts';
import { AutoReloadCard } from './auto-reload-card.tsx';
import { CardBlock } from './card-block.tsx';
import { SpendingChart } from './spending-chart.tsx';
import { TestModeBadge } from './test-mode-badge.tsx';
import { TransactionList } from './transaction-list.tsx';

/** Account (/account), spec section 2, made real by issue 10: balance, reload, cards, plan, history. */
export function AccountScreen() {
  const { t } = useTranslation();
  const details = useAccountDetails();
  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PageHeader title={t('Account')} />
      <div className="flex flex-col gap-4 p-4">
        {details.isPending ? (
          <Skeleton rows={3} className="h-32" />
        ) : details.isError ? (
          <LoadError message={t('Your account could not be loaded.')} retrying={details.isFetching} onRetry={() => void details.refetch()} />
        ) : (
          <>
            <section aria-labelledby="balance-title" className="rounded-2xl bg-brand-700 p-5 text-white shadow-md">
              <div className="flex items-center justify-between gap-2">
                <h2 id="balance-title" className="flex items-center gap-2 text-sm font-medium text-brand-50">
                  <Wallet className="size-4" aria-hidden />
                  {t('Current Balance')}
                </h2>
                {details.data.PaymentProvider === 'sandbox' && <TestModeBadge />}
              </div>
              <p className="mt-2 text-4xl font-bold tabular-nums" data-testid="balance">
                {money(details.data.CurrencySymbol, details.data.Balance)}
              </p>
              <ButtonLink to={paths.addMoney} variant="secondary" className="mt-4 !ring-0">
                <Plus className="size-4" aria-hidden />
                {t('ADD MONEY')}
              </ButtonLink>
            </section>
            <AutoReloadCard key={`${details.data.DefaultAddAmount}-${details.data.MinBalance}`} details={details.data} />
            <CardBlock />
            <section aria-labelledby="plan-title" className="flex items-center gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
              <Crown className="size-6 shrink-0 text-amber-500" aria-hidden />
              <div className="min-w-0 flex-1">
                <h2 id="plan-title" className="text-sm text-slate-600">
                  {t('Your plan')}
                </h2>
                <p className="font-semibold text-slate-900" data-testid="current-plan">
                  {t(details.data.Plan.Name)}
                </p>
              </div>
              <ButtonLink to={paths.subscription} variant="ghost">
                {t('Plans')}
              </ButtonLink>
            </section>
            <section aria-labelledby="spending-title" className="flex flex-col gap-2 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
              <h2 id="spending-title" className="font-semibold text-slate-900">
                {t('Spending')}
              </h2>
              <SpendingChart symbol={details.data.CurrencySymbol} />
            </section>
            <section aria-labelledby="tx-title" className="flex flex-col gap-1 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
              <h2 id="tx-title" className="font-semibold text-slate-900">
                {t('Transactions')}
              </h2>
              <TransactionList symbol={details.data.CurrencySymbol} />
            </section>
          </>
        )}
      </div>
    </main>
  );
}

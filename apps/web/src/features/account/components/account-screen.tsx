import { useTranslation } from '../../../lib/i18n.ts';
import Crown from 'lucide-react/icons/crown';
import { BalanceCard } from '../../../components/ui/balance-card.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Panel, StatCard } from '../../../components/ui/panel.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { useAccountDetails } from '../../../lib/account-details.ts';
import { useMoney } from '../../../lib/money.ts';
import { AutoReloadCard } from './auto-reload-card.tsx';
import { CardBlock } from './card-block.tsx';
import { SpendingChart } from './spending-chart.tsx';
import { TestModeBadge } from './test-mode-badge.tsx';
import { TransactionList } from './transaction-list.tsx';

/** Account (/account), docs/product.md#screens, made real by issue 10: balance, reload, cards, plan, history. */
export function AccountScreen() {
  const { t } = useTranslation();
  const details = useAccountDetails({ fresh: true });
  const money = useMoney();
  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PageHeader title={t('Account')} />
      <div className="flex flex-col gap-4 p-4">
        <Loaded
          query={details}
          skeleton={<Skeleton rows={3} className="h-32" />}
          failed={t('Your account could not be loaded.')}
        >
          {(data) => (
            <>
              <BalanceCard
                balance={money(data.Balance)}
                badge={data.PaymentProvider === 'sandbox' && <TestModeBadge />}
              />
              <AutoReloadCard key={`${data.DefaultAddAmount}-${data.MinBalance}`} details={data} />
              <CardBlock />
              <StatCard
                icon={<Crown className="size-6 shrink-0 text-amber-500" aria-hidden />}
                title={t('Your plan')}
                value={t(data.Plan.Name)}
                testId="current-plan"
                action={
                  <ButtonLink to={paths.subscription} variant="ghost">
                    {t('Plans')}
                  </ButtonLink>
                }
              />
              <Panel title={t('Spending')}>
                <SpendingChart />
              </Panel>
              <Panel title={t('Transactions')}>
                <TransactionList />
              </Panel>
            </>
          )}
        </Loaded>
      </div>
    </main>
  );
}

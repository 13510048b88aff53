import { useTranslation } from '../../../lib/i18n.ts';
import type { Transaction } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useTransactions } from '../api/wallet.ts';
import { dateTime } from '../lib/date-time.ts';
import { signedMoney, useMoney } from '../../../lib/money.ts';

const DESCRIPTION: Record<Transaction['Kind'], string> = {
  'top-up': 'Money added',
  'auto-reload': 'Auto-reload',
  parking: 'Parking',
  refund: 'Parking refund',
  plan: 'Plan payment',
  adjustment: 'Adjustment',
  'card-refund': 'Refunded to your card',
  citation: 'Citation payment',
  'citation-refund': 'Citation refund',
  permit: 'Parking permit',
};

/** The wallet's ledger, newest first, a page at a time. */
export function TransactionList() {
  const { t } = useTranslation();
  const money = useMoney();
  const tx = useTransactions();
  return (
    <Loaded
      query={tx}
      skeleton={<Skeleton rows={3} className="h-14" />}
      failed={t('Your transactions could not be loaded.')}
    >
      {(data) => {
        const items = data.pages.flatMap((p) => p.Items);
        if (items.length === 0) {
          return (
            <p className="rounded-xl bg-slate-50 p-4 text-center text-sm text-slate-600">
              {t('No transactions yet. Money you add and spend shows here.')}
            </p>
          );
        }
        return (
          <>
            <ul className="divide-y divide-slate-100" data-testid="transactions">
              {items.map((item) => (
                <li key={item.TransactionId} className="flex items-center justify-between gap-3 py-3">
                  <div className="min-w-0 flex-1">
                    <p className="text-sm font-medium text-slate-900">{t(DESCRIPTION[item.Kind])}</p>
                    <p className="text-xs text-slate-500">{dateTime(item.CreatedAt)}</p>
                  </div>
                  <p
                    className={`shrink-0 text-sm font-semibold tabular-nums ${item.Amount > 0 ? 'text-emerald-700' : 'text-slate-900'}`}
                  >
                    {signedMoney(money, item.Amount)}
                  </p>
                </li>
              ))}
            </ul>
            {tx.hasNextPage && (
              <Button variant="ghost" block loading={tx.isFetchingNextPage} onClick={() => void tx.fetchNextPage()}>
                {t('Show more')}
              </Button>
            )}
          </>
        );
      }}
    </Loaded>
  );
}

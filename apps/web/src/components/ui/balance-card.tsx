import type { ReactNode } from 'react';
import { useTranslation } from '../../lib/i18n.ts';
import Plus from 'lucide-react/icons/plus';
import Wallet from 'lucide-react/icons/wallet';
import { paths } from '../../config/paths.ts';
import { ButtonLink } from './button-link.tsx';

/**
 * The balance and its ADD MONEY link, as /dashboard and /account show it. `balance` is already
 * formatted ('$20.00'); `badge` stands beside the title; `children` go under the amount.
 */
export function BalanceCard({
  balance,
  badge,
  children,
}: {
  balance: string;
  badge?: ReactNode;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="balance-title" className="rounded-2xl bg-brand-700 p-5 text-white shadow-md">
      <div className="flex items-center justify-between gap-2">
        <h2 id="balance-title" className="flex items-center gap-2 text-sm font-medium text-brand-50">
          <Wallet className="size-4" aria-hidden />
          {t('Current Balance')}
        </h2>
        {badge}
      </div>
      <p className="mt-2 text-4xl font-bold tabular-nums" data-testid="balance">
        {balance}
      </p>
      {children}
      <ButtonLink to={paths.addMoney} variant="secondary" className="mt-4 !ring-0">
        <Plus className="size-4" aria-hidden />
        {t('ADD MONEY')}
      </ButtonLink>
    </section>
  );
}

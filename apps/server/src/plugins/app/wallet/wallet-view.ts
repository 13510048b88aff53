import { sql } from 'drizzle-orm';
import { centsToAmount, type WalletDetails } from '@parkit/contract';
import { queryRows, type Executor } from '../../../db/client.ts';
import type { WalletService } from './wallet-plugin.ts';

export const DEFAULT_ADD_AMOUNT_CENTS = 2000;

interface Row {
  auto_reload: boolean | null;
  default_add_amount_cents: number | null;
  card_id: number | null;
  brand: string | null;
  last4: string | null;
  plan_id: number;
  plan_code: string;
  plan_name: string;
}

/**
 * The wallet part of GET /api/Account/Details in one round trip: reload settings, default card,
 * the plan (the active subscription's, else Basic), currency and provider.
 */
export async function walletDetails(db: Executor, wallet: WalletService, memberId: number): Promise<WalletDetails> {
  const [row] = await queryRows<Row>(
    db,
    sql`select ws.auto_reload, ws.default_add_amount_cents, pm.id as card_id, pm.brand, pm.last4,
               p.id as plan_id, p.code as plan_code, p.name as plan_name
        from (select 1) one
        left join wallet_settings ws on ws.member_id = ${memberId}
        left join payment_methods pm on pm.member_id = ${memberId} and pm.is_default
        cross join lateral (
          select pl.id, pl.code, pl.name from plans pl
          where pl.id = coalesce((select s.plan_id from subscriptions s where s.member_id = ${memberId} and s.status = 'active'),
                                 (select b.id from plans b where b.code = 'basic'))
        ) p`,
  );
  if (!row) throw new Error('the Basic plan is missing (migration wallet_data)');
  return {
    DefaultAddAmount: centsToAmount(row.default_add_amount_cents ?? DEFAULT_ADD_AMOUNT_CENTS),
    AutoReload: row.auto_reload ?? false,
    Currency: wallet.currency.toUpperCase(),
    CurrencySymbol: wallet.currencySymbol,
    DefaultCard: row.card_id !== null ? { PaymentMethodId: row.card_id, Brand: row.brand ?? '', Last4: row.last4 ?? '' } : null,
    Plan: { PlanId: row.plan_id, Code: row.plan_code, Name: row.plan_name },
    PaymentProvider: wallet.provider.name,
  };
}

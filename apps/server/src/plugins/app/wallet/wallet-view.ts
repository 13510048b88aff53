import { and, eq } from 'drizzle-orm';
import { centsToAmount, type WalletDetails } from '@parkit/contract';
import type { Executor } from '../../../db/client.ts';
import { paymentMethods, walletSettings } from '../../../db/schema/index.ts';
import { planForMember } from './plans.ts';
import type { WalletService } from './wallet-plugin.ts';

export const DEFAULT_ADD_AMOUNT_CENTS = 2000;

/** The wallet part of GET /api/Account/Details: reload settings, default card, plan, currency. */
export async function walletDetails(db: Executor, wallet: WalletService, memberId: number): Promise<WalletDetails> {
  const [[settings], [card], plan] = await Promise.all([
    db.select().from(walletSettings).where(eq(walletSettings.memberId, memberId)),
    db
      .select({ id: paymentMethods.id, brand: paymentMethods.brand, last4: paymentMethods.last4 })
      .from(paymentMethods)
      .where(and(eq(paymentMethods.memberId, memberId), eq(paymentMethods.isDefault, true))),
    planForMember(db, memberId),
  ]);
  return {
    DefaultAddAmount: centsToAmount(settings?.defaultAddAmountCents ?? DEFAULT_ADD_AMOUNT_CENTS),
    AutoReload: settings?.autoReload ?? false,
    Currency: wallet.currency.toUpperCase(),
    CurrencySymbol: wallet.currencySymbol,
    DefaultCard: card ? { PaymentMethodId: card.id, Brand: card.brand, Last4: card.last4 } : null,
    Plan: { PlanId: plan.id, Code: plan.code, Name: plan.name },
    PaymentProvider: wallet.provider.name,
  };
}

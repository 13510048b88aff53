import { centsToAmount, type WalletDetails } from '@parkit/contract';
import type { PlanName } from './plans.ts';
import type { WalletService } from './wallet-plugin.ts';

export const DEFAULT_ADD_AMOUNT_CENTS = 2000;

/** The wallet's columns of GET /api/Account/Details (read with the member: account-details.ts). */
export interface WalletRow {
  autoReload: boolean | null;
  defaultAddAmountCents: number | null;
  cardId: number | null;
  brand: string | null;
  last4: string | null;
  /** The active subscription's plan; null: Basic (its name: ReferenceCache.plan()). */
  subscribedPlanId: number | null;
}

/**
 * The wallet part of GET /api/Account/Details: reload settings (defaults when never saved), the
 * default card, the plan (the active subscription's, else Basic), currency and provider.
 */
export function toWalletDetails(row: WalletRow, wallet: WalletService, plan: PlanName): WalletDetails {
  return {
    DefaultAddAmount: centsToAmount(row.defaultAddAmountCents ?? DEFAULT_ADD_AMOUNT_CENTS),
    AutoReload: row.autoReload ?? false,
    Currency: wallet.currency.toUpperCase(),
    CurrencySymbol: wallet.currencySymbol,
    DefaultCard:
      row.cardId !== null ? { PaymentMethodId: row.cardId, Brand: row.brand ?? '', Last4: row.last4 ?? '' } : null,
    Plan: { PlanId: plan.id, Code: plan.code, Name: plan.name },
    PaymentProvider: wallet.provider.name,
  };
}

import { formatDateLong, formatMoney, formatTime } from '@parkit/contract';

/** '$20.00', '-$3.25' (spec section 9: two decimals, en-US, the configured symbol). */
export function money(symbol: string, amount: number): string {
  return `${amount < 0 ? '-' : ''}${symbol}${formatMoney(Math.abs(amount))}`;
}

/** '+$20.00' / '-$3.25' for the ledger. */
export const signedMoney = (symbol: string, amount: number) => (amount > 0 ? `+${money(symbol, amount)}` : money(symbol, amount));

/** Spec section 9: 'DD MMM YYYY, hh:mm A'. */
export const dateTime = (iso: string) => `${formatDateLong(iso)}, ${formatTime(iso)}`;

import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { formatMoney } from '@parkit/contract';
import { env } from '../config/env.ts';
import { accountDetailsQuery } from './session.ts';

/** An amount as the driver reads it ('$20.00', '-$3.25'); `symbol` alone, for a field's prefix. */
export type Money = ((amount: number | string) => string) & { symbol: string };

/**
 * The server's CURRENCY_SYMBOL as it wrote it into the page: shown until the account's Details are
 * cached, and to a guest, who has no account to read it from.
 */
const DEFAULT_SYMBOL = env.CURRENCY_SYMBOL;

/** The one money formatter: two decimals, en-US (formatMoney), the sign before the symbol. */
export function moneyIn(symbol: string): Money {
  const money = (amount: number | string) => {
    const n = typeof amount === 'number' ? amount : Number(amount.replace(/,/g, ''));
    return `${n < 0 ? '-' : ''}${symbol}${formatMoney(Math.abs(n))}`;
  };
  return Object.assign(money, { symbol });
}

/** An amount as a field holds it before it is edited: '1,234.50', no symbol. */
export const amountText = (amount: number | string) => formatMoney(amount);

/** '+$20.00' / '-$3.25' for the ledger. */
export const signedMoney = (money: Money, amount: number) => (amount > 0 ? `+${money(amount)}` : money(amount));

/**
 * Amounts in the configured currency: the account's CurrencySymbol as its cached Details have it
 * (GET /api/Account/Details, lib/session.ts). It loads nothing itself: a screen that shows a
 * balance loads the Details, and every other amount follows them.
 */
export function useMoney(): Money {
  const { data: symbol = DEFAULT_SYMBOL } = useQuery({
    ...accountDetailsQuery,
    enabled: false,
    select: (d) => d.CurrencySymbol,
  });
  return useMemo(() => moneyIn(symbol), [symbol]);
}

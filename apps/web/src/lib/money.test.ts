import { createElement, type ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { moneyIn, signedMoney, useMoney } from './money.ts';
import { queryKeys } from './query-keys.ts';

describe('money', () => {
  it('shows an amount with the configured symbol, two decimals, the sign before the symbol', () => {
    const rupees = moneyIn('₹');
    expect(rupees(20)).toBe('₹20.00');
    expect(rupees(-3.25)).toBe('-₹3.25');
    expect(rupees(1234.5)).toBe('₹1,234.50');
    expect(rupees('1,234.5')).toBe('₹1,234.50');
    expect(rupees('')).toBe('₹0.00');
    expect(rupees('abc')).toBe('₹0.00');
    expect(rupees.symbol).toBe('₹');
  });

  it('signs a ledger amount', () => {
    const dollars = moneyIn('$');
    expect(signedMoney(dollars, 20)).toBe('+$20.00');
    expect(signedMoney(dollars, -3.25)).toBe('-$3.25');
    expect(signedMoney(dollars, 0)).toBe('$0.00');
  });
});

describe('useMoney', () => {
  const inCache = (details?: { CurrencySymbol: string }) => {
    const client = new QueryClient();
    if (details) client.setQueryData(queryKeys.accountDetails, details);
    return ({ children }: { children: ReactNode }) => createElement(QueryClientProvider, { client }, children);
  };

  it('follows the currency the account is configured with, and loads nothing itself', () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { result } = renderHook(() => useMoney(), { wrapper: inCache({ CurrencySymbol: '€' }) });
    expect(result.current(5)).toBe('€5.00');
    expect(fetch).not.toHaveBeenCalled();
    vi.unstubAllGlobals();
  });

  it('is in the default currency before the account is loaded (and for a guest)', () => {
    const { result } = renderHook(() => useMoney(), { wrapper: inCache() });
    expect(result.current(5)).toBe('$5.00');
  });

  it('starts in the currency the server wrote into the page, before any account is read', async () => {
    const meta = document.createElement('meta');
    meta.name = 'parkit-currency-symbol';
    meta.content = '₹';
    document.head.append(meta);
    vi.resetModules();
    try {
      const fresh = await import('./money.ts');
      const { result } = renderHook(() => fresh.useMoney(), { wrapper: inCache() });
      expect(result.current(5)).toBe('₹5.00');
    } finally {
      meta.remove();
      vi.resetModules();
    }
  });
});

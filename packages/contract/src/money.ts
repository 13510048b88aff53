/**
 * Money is integer cents everywhere except on the wire, where the spec shows amounts as decimal
 * numbers with two places (Balance). These are the only conversions (docs/architecture.md#money).
 */
export function centsToAmount(cents: number): number {
  if (!Number.isSafeInteger(cents)) throw new RangeError(`cents must be a safe integer, got ${cents}`);
  return cents / 100;
}

/** Parses a decimal amount with at most two places into cents; null when it is not one. */
export function amountToCents(amount: number | string): number | null {
  // NaN, Infinity and numbers too large for 12 digits print as 'NaN', 'Infinity' or '1e+21': no match.
  const s = typeof amount === 'number' ? amount.toFixed(10) : amount.trim();
  const m = /^(-?)(\d{1,12})(?:\.(\d{0,10}))?$/.exec(s);
  if (!m) return null;
  const [, sign, whole = '0', frac = ''] = m;
  if (frac.replace(/0+$/, '').length > 2) return null;
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, '0').slice(0, 2));
  return sign === '-' ? -cents : cents;
}

/**
 * Made on first use, not when the module loads: a page's first Intl formatter loads the locale's
 * data, 150-220 ms on Lighthouse's throttled phone, which a screen that shows no money (/homepage
 * for a visitor) paid before it could answer a tap.
 */
let moneyFormat: Intl.NumberFormat | undefined;

/** docs/product.md#formats-and-limits: exactly two decimals, en-US style, '0.00' when empty or invalid. */
export function formatMoney(value: unknown): string {
  // null and undefined are not numbers (NaN); '' and blanks are Number('') = 0: all '0.00'.
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value.replace(/,/g, '')) : NaN;
  return Number.isFinite(n)
    ? (moneyFormat ??= new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })).format(n)
    : '0.00';
}

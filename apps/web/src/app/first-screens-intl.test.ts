import { afterAll, describe, expect, it } from 'vitest';

// A page's first Intl object loads the locale's data (150-220 ms on Lighthouse's
// throttled phone, a long task before the screen answers a tap). The first screens' modules make
// none when they load; a formatter is made when something is first formatted.
const KINDS = [
  'NumberFormat',
  'DateTimeFormat',
  'Segmenter',
  'PluralRules',
  'Collator',
  'RelativeTimeFormat',
  'ListFormat',
] as const;
const made: string[] = [];
const real = new Map(KINDS.map((k) => [k, Intl[k]]));
for (const kind of KINDS) {
  Object.defineProperty(Intl, kind, {
    configurable: true,
    writable: true,
    value: new Proxy(real.get(kind)!, {
      construct(target, args, newTarget) {
        made.push(kind);
        return Reflect.construct(target, args, newTarget) as object;
      },
    }),
  });
}
afterAll(() => {
  for (const kind of KINDS)
    Object.defineProperty(Intl, kind, { configurable: true, writable: true, value: real.get(kind) });
});

describe('the first screens make no Intl object when their modules load', () => {
  it('the landing page, the data layer, the tabs and /homepage', async () => {
    await import('./router.tsx');
    await import('./provider.tsx');
    await import('../components/layouts/layouts.tsx');
    await import('./routes/homepage.tsx');
    expect(made).toEqual([]);
  });

  it('a formatter is made when money, a distance or initials are first shown', async () => {
    const { formatMoney } = await import('@parkit/contract');
    const { formatDistance } = await import('../features/parking/lib/zone-format.ts');
    const { initials } = await import('../lib/initials.ts');
    expect(formatMoney(1234.5)).toBe('1,234.50');
    expect(formatDistance(1234, (key, o) => key.replace('{{distance}}', String(o?.distance)))).toBe('1.2 km');
    expect(initials('Zoë', 'Ray')).toBe('ZR');
    expect(made).toEqual(['NumberFormat', 'NumberFormat', 'Segmenter']);
  });
});

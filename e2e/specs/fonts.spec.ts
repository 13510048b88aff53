import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { driver, payableZone, start, stop } from '../parking-fixtures.ts';

/**
 * On a machine with no Devanagari font of its own (this one: `fc-list | grep -i
 * devanagari` is empty), a fresh load of a screen in Hindi must draw every text in the shipped
 * Noto Sans Devanagari, at every weight the screen uses. A text laid out before its face was ready
 * kept its missing-glyph boxes: each Devanagari word as laid out on the screen is measured against
 * the same word laid out now (once every face has loaded), and each weight in use must be loaded and
 * draw its sample text wider or narrower than the boxes would.
 */

test.use({ reducedMotion: 'reduce', permissions: ['geolocation'] });

const DEVANAGARI = /[\u0900-\u097F]/;

interface Report {
  words: number;
  weights: string[];
  unchecked: string[];
  boxed: { weight: string; sample: number; boxes: number }[];
  stale: { word: string; weight: string; laidOut: number; now: number }[];
}

/** Every Devanagari text node on the screen, checked as the browser drew it. */
function inspect(): Promise<Report> {
  return (async () => {
    await document.fonts.ready;
    const devanagari = /[\u0900-\u097F]/;
    const nodes: Text[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      const text = n as Text;
      if (!devanagari.test(text.data)) continue;
      const range = document.createRange();
      range.selectNodeContents(text);
      if (range.getClientRects().length === 0) continue; // not drawn (hidden, display: none)
      nodes.push(text);
    }
    // A word laid out now, in the same font as its text node's element.
    const copied = [
      'font-family',
      'font-size',
      'font-weight',
      'font-style',
      'font-stretch',
      'font-variant-numeric',
      'font-feature-settings',
      'letter-spacing',
      'text-transform',
    ];
    const probe = document.createElement('span');
    probe.style.cssText = 'position:absolute;left:-10000px;top:0;white-space:pre';
    document.body.append(probe);
    const widthNow = (font: (property: string) => string, word: string) => {
      for (const p of copied) probe.style.setProperty(p, font(p));
      probe.textContent = word;
      return probe.getBoundingClientRect().width;
    };
    const report: Report = { words: 0, weights: [], unchecked: [], boxed: [], stale: [] };
    const weights = new Set<string>();
    for (const text of nodes) {
      const style = getComputedStyle(text.parentElement!);
      weights.add(style.fontWeight);
      // Word by word, so that a text wrapped over lines compares too.
      for (const m of text.data.matchAll(/\S+/g)) {
        if (!devanagari.test(m[0])) continue;
        const range = document.createRange();
        range.setStart(text, m.index);
        range.setEnd(text, m.index + m[0].length);
        const laidOut = [...range.getClientRects()].reduce((sum, r) => sum + r.width, 0);
        const now = widthNow((p) => style.getPropertyValue(p), m[0]);
        report.words++;
        if (Math.abs(laidOut - now) > 0.5)
          report.stale.push({
            word: m[0],
            weight: style.fontWeight,
            laidOut: +laidOut.toFixed(2),
            now: +now.toFixed(2),
          });
      }
    }
    report.weights = [...weights].sort();
    for (const weight of report.weights) {
      const face = `${weight} 16px "Noto Sans Devanagari"`;
      if (!document.fonts.check(face, 'कमि')) report.unchecked.push(weight);
      // U+E000 (private use) has no glyph in any font: the box a missing glyph is drawn as.
      const body = getComputedStyle(document.body);
      const font = (p: string) =>
        p === 'font-weight' ? weight : p === 'font-size' ? '40px' : p === 'font-family' ? body.fontFamily : '';
      const sample = widthNow(font, 'नमस्ते');
      const box = widthNow(font, '\uE000');
      // नमस्ते drawn as boxes is one to four boxes wide (its letters, or its clusters).
      if ([1, 2, 3, 4, 5, 6].some((n) => Math.abs(sample - n * box) < 0.5))
        report.boxed.push({ weight, sample, boxes: box });
    }
    probe.remove();
    return report;
  })();
}

/** A fresh load of `path` in Hindi (nothing from the browser's cache), checked once it shows `ready`. */
async function check(page: Page, path: string, ready: (page: Page) => Promise<void>) {
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  await ready(page);
  const report = await page.evaluate(inspect);
  expect(report.words, `${path}: Devanagari words on the screen`).toBeGreaterThan(3);
  expect(report.unchecked, `${path}: weights whose face is not loaded`).toEqual([]);
  expect(report.boxed, `${path}: weights that draw boxes`).toEqual([]);
  expect(report.stale, `${path}: words drawn before their face was ready`).toEqual([]);
  return report;
}

test('Hindi draws every text of the main screens in its font, on a fresh load of each', async ({ page, request }) => {
  test.setTimeout(120_000);
  expect('नमस्ते').toMatch(DEVANAGARI);
  // Every load of this page fetches the scripts and fonts again, as a first visit does.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  const weights = new Set<string>();
  const heading = (name: string | RegExp) => async (p: Page) => {
    await expect(p.getByRole('heading', { name }).first()).toBeVisible();
  };

  await page.goto('/parkit');
  await page.evaluate(() => localStorage.setItem('language', 'hi'));
  for (const w of (
    await check(
      page,
      '/parkit',
      async (p) => void (await expect(p.getByRole('navigation', { name: 'शुरू करें' })).toBeVisible()),
    )
  ).weights)
    weights.add(w);

  // Signed up in English (the fixtures read the English screens), then shown in Hindi.
  await page.evaluate(() => localStorage.setItem('language', 'en'));
  const { headers, vehicles } = await driver(page, request, { fund: 40 });
  await page.evaluate(() => localStorage.setItem('language', 'hi'));
  const zone = await payableZone(request, headers, vehicles[0]!);
  const ended = await start(request, headers, zone.ZoneId, vehicles[0]!, 30);
  await stop(request, headers, ended.SessionId);
  const running = await start(request, headers, zone.ZoneId, vehicles[0]!, 60);

  const screens: [string, (p: Page) => Promise<void>][] = [
    ['/homepage', heading(/नमस्ते/)],
    ['/findparking', async (p) => void (await expect(p.getByRole('main')).toBeVisible())],
    [`/parkdetails?id=${running.SessionId}`, async (p) => void (await expect(p.getByTestId('plate')).toBeVisible())],
    [`/ClosingReceipt?id=${ended.SessionId}`, async (p) => void (await expect(p.getByRole('article')).toBeVisible())],
    ['/pastpark', async (p) => void (await expect(p.getByRole('listitem').first()).toBeVisible())],
    ['/account', async (p) => void (await expect(p.getByTestId('balance')).toBeVisible())],
    ['/profile', async (p) => void (await expect(p.getByRole('heading').first()).toBeVisible())],
  ];
  for (const [path, ready] of screens) for (const w of (await check(page, path, ready)).weights) weights.add(w);

  // Switched to on Profile, from English: the screen redraws in Hindi, every word in its font.
  await page.evaluate(() => localStorage.setItem('language', 'en'));
  await page.goto('/profile');
  await page.getByText('हिन्दी').click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  await expect(page.getByRole('radio', { name: 'हिन्दी' })).toBeChecked();
  const switched = await page.evaluate(inspect);
  expect(switched.words).toBeGreaterThan(3);
  expect(switched.unchecked).toEqual([]);
  expect(switched.boxed).toEqual([]);
  expect(switched.stale).toEqual([]);

  // The screens use more than one weight: each was checked.
  expect(weights.size).toBeGreaterThan(2);
});

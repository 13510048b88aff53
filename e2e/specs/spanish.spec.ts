import type { Page } from '@playwright/test';
import { expect, test } from '../fixtures.ts';
import { driver, payableZone, start, stop } from '../parking-fixtures.ts';

/**
 * Spanish (es-US) is a whole language. A first visit from a Spanish browser opens in
 * Spanish; the first screen's Language button and Profile switch to it and the choice stays; and
 * the main screens, whose Spanish runs about a third longer than English, fit a 390 px phone:
 * nothing sticks out sideways, and no text is cut off with an ellipsis instead of wrapping.
 */

test.use({ reducedMotion: 'reduce', permissions: ['geolocation'] });

interface Misfit {
  what: string;
  text: string;
  left: number;
  right: number;
}

/** Every drawn element that sticks out of the viewport sideways, or whose text is cut (ellipsis or hidden overflow). */
function misfits(): { scrollWidth: number; width: number; out: Misfit[]; cut: Misfit[] } {
  const width = document.documentElement.clientWidth;
  const out: Misfit[] = [];
  const cut: Misfit[] = [];
  const describe = (el: Element) => {
    const r = el.getBoundingClientRect();
    return {
      what: `${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? '.' + el.className.split(' ').slice(0, 3).join('.') : ''}`,
      text: (el.textContent ?? '').trim().slice(0, 60),
      left: Math.round(r.left),
      right: Math.round(r.right),
    };
  };
  /** Inside a box that scrolls sideways on purpose (a row of chips), or drawn off screen for readers only. */
  const exempt = (el: Element) => {
    for (let e: Element | null = el; e && e !== document.body; e = e.parentElement) {
      const s = getComputedStyle(e);
      if (s.overflowX === 'auto' || s.overflowX === 'scroll') return true;
      if (s.position === 'fixed' && e !== el && s.transform !== 'none') return true;
      if (e.classList.contains('sr-only') || e.classList.contains('leaflet-container')) return true;
    }
    return false;
  };
  for (const el of document.body.querySelectorAll('*')) {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const style = getComputedStyle(el);
    if (style.visibility === 'hidden') continue;
    const hasText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent!.trim() !== '');
    if (!hasText || exempt(el)) continue;
    if (r.left < -1 || r.right > width + 1) out.push(describe(el));
    const clips = style.textOverflow === 'ellipsis' || (style.overflowX === 'hidden' && style.whiteSpace === 'nowrap');
    if (clips && el.scrollWidth > el.clientWidth + 1) cut.push(describe(el));
  }
  return { scrollWidth: document.documentElement.scrollWidth, width, out, cut };
}

async function fits(page: Page, path: string) {
  const report = await page.evaluate(misfits);
  expect(report.out, `${path}: texts outside the 390 px screen`).toEqual([]);
  expect(report.cut, `${path}: texts cut instead of wrapped`).toEqual([]);
  expect(report.scrollWidth, `${path}: the page scrolls sideways`).toBeLessThanOrEqual(report.width);
}

test.describe('a Spanish browser', () => {
  test.use({ locale: 'es-US' });

  test('opens in Spanish on a first visit, with nothing stored', async ({ page }) => {
    await page.goto('/parkit');
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await expect(page.getByRole('link', { name: 'Iniciar sesión' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Idioma: Español' })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('language'))).toBeNull();
    await fits(page, '/parkit');
  });
});

test('the first screen’s Language button switches to Spanish from the keyboard, and the choice stays', async ({
  page,
}) => {
  await page.goto('/parkit');
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');
  const button = page.getByRole('button', { name: 'Language: English' });
  await button.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('radio', { name: 'Español' })).toBeAttached();
  await page.keyboard.press('Tab');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await expect(page.getByRole('link', { name: 'Registrarse' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('button', { name: 'Idioma: Español' })).toBeFocused();
  await page.reload();
  await expect(page.getByRole('link', { name: 'Iniciar sesión' })).toBeVisible();
  await page.getByRole('link', { name: 'Iniciar sesión' }).click();
  await expect(page.getByRole('heading', { name: 'Bienvenido de nuevo' })).toBeVisible();
  await fits(page, '/login');
});

test('the main screens in Spanish fit a 390 px phone: long texts wrap, none is cut', async ({ page, request }) => {
  test.setTimeout(120_000);
  // Signed up in English (the fixtures read the English screens), then shown in Spanish.
  const { headers, vehicles } = await driver(page, request, { fund: 40 });
  await page.evaluate(() => localStorage.setItem('language', 'es'));
  const zone = await payableZone(request, headers, vehicles[0]!);
  const ended = await start(request, headers, zone.ZoneId, vehicles[0]!, 30);
  await stop(request, headers, ended.SessionId);
  const running = await start(request, headers, zone.ZoneId, vehicles[0]!, 60);

  const screens: [string, (p: Page) => Promise<void>][] = [
    ['/homepage', async (p) => void (await expect(p.getByRole('heading', { name: /Hola/ })).toBeVisible())],
    ['/findparking', async (p) => void (await expect(p.getByRole('main')).toBeVisible())],
    [`/confirmlocation?zone=${zone.ZoneId}`, async (p) => void (await expect(p.getByRole('main')).toBeVisible())],
    [`/parkdetails?id=${running.SessionId}`, async (p) => void (await expect(p.getByTestId('plate')).toBeVisible())],
    [`/ClosingReceipt?id=${ended.SessionId}`, async (p) => void (await expect(p.getByRole('article')).toBeVisible())],
    ['/pastpark', async (p) => void (await expect(p.getByRole('listitem').first()).toBeVisible())],
    ['/account', async (p) => void (await expect(p.getByTestId('balance')).toBeVisible())],
    ['/profile', async (p) => void (await expect(p.getByRole('radio', { name: 'Español' })).toBeChecked())],
    ['/myvehicles', async (p) => void (await expect(p.getByRole('heading').first()).toBeVisible())],
    ['/addmoney', async (p) => void (await expect(p.getByRole('heading').first()).toBeVisible())],
    ['/supportpage', async (p) => void (await expect(p.getByRole('heading').first()).toBeVisible())],
  ];
  for (const [path, ready] of screens) {
    await page.goto(path);
    await expect(page.locator('html')).toHaveAttribute('lang', 'es');
    await ready(page);
    // What loads after the heading (a list, a map's zones) settles: the screen is measured as read.
    await page.waitForTimeout(700);
    await page.screenshot({ path: test.info().outputPath(`es${path.replace(/[/?=&]/g, '_')}.png`), fullPage: true });
    await fits(page, path);
  }
  // Spanish on screen: the account's Spanish words, the amounts in es-US dollars.
  await page.goto('/account');
  await expect(page.getByText('Saldo actual')).toBeVisible();
  await expect(page.getByTestId('balance')).toContainText('$');
});

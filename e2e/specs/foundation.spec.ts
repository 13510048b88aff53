import type { Page } from '@playwright/test';
import {
  continueAsGuest,
  enterCode,
  expect,
  newMemberData,
  readCode,
  registerNewMember,
  registerViaApi,
  signInAsDemo,
  stored,
  test,
} from '../fixtures.ts';

/**
 * What a new user tripped on: guest prompts instead of 'Unauthorized', text that wraps
 * at 390 px, a refused code request, grapheme initials, logout that forgets everything, Hindi
 * with real glyphs and a one-line navigation, and clustered map markers.
 */

/** The page is no wider than the phone (the viewport is 390 px wide: playwright.config.ts). */
async function expectNoSidewaysScroll(page: Page) {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
  }));
  expect(widths.viewport).toBe(390);
  expect(widths.page, 'page wider than the phone').toBeLessThanOrEqual(390);
}

test.describe('a guest where an account is needed', () => {
  for (const path of ['/addvehicles', '/myvehicles', '/dashboard', '/editprofile']) {
    test(`${path}: a sign-in prompt, no request refused, no 'Unauthorized'`, async ({ page }) => {
      const refused: string[] = [];
      page.on('response', (r) => {
        if (r.status() === 401) refused.push(r.url());
      });
      await continueAsGuest(page);
      await page.goto(path);
      await expect(page.getByRole('heading', { name: 'Sign in to continue' })).toBeVisible();
      await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
      await expect(page.getByText('Unauthorized')).toHaveCount(0);
      await expect(page).toHaveURL(new RegExp(`${path}$`));
      expect(refused).toEqual([]);
    });
  }

  test('Find Parking with a client_id: the prompt, and its Login really opens the login form', async ({ page }) => {
    await continueAsGuest(page);
    await page.evaluate(() => localStorage.setItem('client_id', '1'));
    await page.goto('/homepage');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Find Parking' }).click();
    await expect(page).toHaveURL(/\/findparking$/);
    await expect(page.getByRole('heading', { name: 'Sign in to continue' })).toBeVisible();
    await expect(page.getByText('Unauthorized')).toHaveCount(0);
    await page.getByRole('link', { name: 'Login', exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByLabel('Username or Email')).toBeVisible();
    expect(await stored(page, 'is_guestUser')).toBeNull();
  });
});

test.describe('long text wraps at 390 px', () => {
  test('a 200-character search on Find Parking', async ({ page }) => {
    await signInAsDemo(page);
    await page.goto('/findparking');
    await page.getByLabel('Search by zone number or address').fill('Congress'.repeat(25));
    await expect(page.getByText(/Congress(Congress)+/).first()).toBeVisible();
    await expectNoSidewaysScroll(page);
  });

  test('long names, email and address on every member screen', async ({ page }) => {
    const long = 'W'.repeat(50);
    const member = await registerNewMember(page, page.request, { FirstName: long, LastName: long });
    await expectNoSidewaysScroll(page);
    await page.goto('/editprofile');
    await page.getByLabel('AddressLine 1').fill('Ünterwegsstraße'.repeat(6));
    await page.getByLabel('City').fill('Llanfairpwllgwyngyllgogerychwyrndrobwllllantysiliogogogoch');
    await page.getByLabel('ZipCode').fill('78701');
    await page.getByRole('button', { name: 'Ok' }).click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByText(`${long} ${long}`)).toBeVisible();
    for (const path of ['/profile', '/homepage', '/dashboard', '/editprofile', '/addvehicles', '/myvehicles']) {
      await page.goto(path);
      await expect(page.locator('main').first()).toBeVisible();
      await expectNoSidewaysScroll(page);
    }
    expect(member.UserName).toBeTruthy();
  });
});

test("a refused code request says why and keeps the server's countdown", async ({ page, request }) => {
  // Registering sends a code; asking again at once is refused (30 s between codes).
  const member = await registerViaApi(request, newMemberData());
  await page.waitForTimeout(1500);
  await page.goto('/login?mode=otp');
  await page.getByLabel('Mobile Number').fill(member.PhoneNumber);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page).toHaveURL(/\/otp\?phone=/);
  await expect(page.getByRole('alert')).toContainText('We sent you a code moments ago: enter it below.');
  await expect(page.getByRole('alert')).toContainText(/Try again in \d+ s\./);
  const waiting = page.getByRole('button', { name: /^Resend code in \d+ s$/ });
  await expect(waiting).toBeDisabled();
  const seconds = Number(/(\d+) s$/.exec((await waiting.textContent()) ?? '')?.[1]);
  expect(seconds).toBeLessThan(30);
  await expect(page.getByText('A new code is on its way.')).toHaveCount(0);
  // The first code is still the one to use.
  await enterCode(page, await readCode(request, member.PhoneNumber, { kind: 'registration' }));
  await expect(page).toHaveURL(/\/addvehicles$/);
});

test('initials are whole graphemes: an emoji name keeps its emoji', async ({ page }) => {
  await registerNewMember(page, page.request, { FirstName: '👍🏽Sam', LastName: 'Lee' });
  await page.goto('/profile');
  await expect(page.getByText('👍🏽L', { exact: true })).toBeVisible();
});

test.describe('logout', () => {
  test.use({ locale: 'hi-IN' });

  test("clears all browser storage, the language too; then the browser's language (Hindi) shows", async ({ page }) => {
    await page.goto('/parkit');
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    // A member of its own: logout ends every session of the member, and the other specs,
    // running beside this one, use demo (the accessibility spec was signed out mid-scan).
    await registerNewMember(page);
    await page.evaluate(() => sessionStorage.setItem('draft', 'x'));
    await page.goto('/profile');
    await page.getByRole('button', { name: 'Logout' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Yes, Logout' }).click();
    await expect(page).toHaveURL(/\/parkit$/);
    const left = await page.evaluate(() => ({ local: { ...localStorage }, session: { ...sessionStorage } }));
    expect(left).toEqual({ local: {}, session: {} });
    await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
  });
});

test.describe('Hindi', () => {
  test('renders real Devanagari glyphs from the shipped font, and the navigation on one line', async ({
    page,
  }, testInfo) => {
    await continueAsGuest(page);
    // English pages never load the Devanagari font.
    expect(await page.evaluate(() => [...document.fonts].some((f) => f.family.includes('Noto Sans Devanagari')))).toBe(
      false,
    );
    await page.evaluate(() => localStorage.setItem('language', 'hi'));
    await page.goto('/homepage');
    await expect(page.locator('html')).toHaveAttribute('lang', 'hi');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('नमस्ते, अतिथि');
    await page.evaluate(() => document.fonts.ready);
    const glyphs = await page.evaluate(async () => {
      await document.fonts.load('16px "Noto Sans Devanagari"', 'क');
      const width = (text: string) => {
        const s = document.createElement('span');
        s.style.font = '40px ' + getComputedStyle(document.body).fontFamily;
        s.style.whiteSpace = 'pre';
        s.textContent = text;
        document.body.append(s);
        const w = s.getBoundingClientRect().width;
        s.remove();
        return w;
      };
      return {
        loaded: [...document.fonts].some((f) => f.family.includes('Noto Sans Devanagari') && f.status === 'loaded'),
        // U+E000 (private use) has no glyph anywhere: the box a missing glyph is drawn as.
        box: width('\uE000'),
        letters: ['क', 'म', 'ि', 'ं', 'ञ'].map(width),
      };
    });
    expect(glyphs.loaded).toBe(true);
    expect(glyphs.letters[0]).not.toBeCloseTo(glyphs.box, 1);
    // Boxes are all alike; real letters are not.
    expect(new Set(glyphs.letters.map((w) => w.toFixed(1))).size).toBeGreaterThan(2);

    const lines = await page.getByRole('navigation', { name: 'मुख्य' }).evaluate((nav) =>
      [...nav.querySelectorAll('li > *')].map((item) => {
        const text = [...item.childNodes].find((n) => n.nodeType === Node.TEXT_NODE && n.textContent?.trim());
        const range = document.createRange();
        if (text) range.selectNodeContents(text);
        return {
          label: text?.textContent,
          lines: text ? range.getClientRects().length : 0,
          overflow: item.scrollWidth > item.clientWidth,
        };
      }),
    );
    expect(lines).toHaveLength(5);
    for (const l of lines) expect(l, l.label ?? '').toMatchObject({ lines: 1, overflow: false });
    await testInfo.attach('hindi-home', { body: await page.screenshot({ fullPage: true }), contentType: 'image/png' });
  });
});

test('map markers: no label over another at any zoom, and a group opens by zooming in', async ({ page }) => {
  await page.context().grantPermissions(['geolocation']);
  await page.context().setGeolocation({ latitude: 30.2682, longitude: -97.7429 });
  await signInAsDemo(page);
  await page.goto('/findParkingMap');
  const zones = page.getByRole('button', { name: /^Zone \d+$/ });
  const groups = page.getByRole('button', { name: /zones here: (zoom in|choose one)$/ });
  const markers = page.locator('.leaflet-marker-icon.zone-marker, .leaflet-marker-icon.zone-cluster');
  // Overlapping pairs of drawn labels (their inner box, as the driver sees it).
  const overlapping = () =>
    markers.evaluateAll((els) => {
      const boxes = els.map((el) =>
        (el.firstElementChild?.firstElementChild ?? el.firstElementChild ?? el).getBoundingClientRect(),
      );
      const pairs: string[] = [];
      boxes.forEach((a, i) =>
        boxes.slice(i + 1).forEach((b, j) => {
          if (a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5) {
            pairs.push(`${els[i]!.getAttribute('aria-label')} / ${els[i + 1 + j]!.getAttribute('aria-label')}`);
          }
        }),
      );
      return pairs;
    });
  await expect(zones.first()).toBeVisible();
  expect(await overlapping()).toEqual([]); // street level
  const zoomOut = page.getByRole('button', { name: 'Zoom out' });
  for (let i = 0; i < 3; i++) {
    await zoomOut.click();
    await expect(page.locator('.leaflet-zoom-anim')).toHaveCount(0); // Leaflet's zoom animation
    // The layout is redrawn after zoomend (a render later than the animation): wait for it to
    // settle; labels still over each other after that fail the test.
    await expect.poll(overlapping, { timeout: 5_000 }).toEqual([]);
  }
  await expect(groups.first()).toBeVisible();
  const single = await zones.count();
  const label = (await groups.first().getAttribute('aria-label')) ?? '';
  expect(Number(/^(\d+)/.exec(label)?.[1])).toBeGreaterThan(1);
  await groups.first().click();
  await expect.poll(() => zones.count()).toBeGreaterThan(single);
  await expect(page.locator('.leaflet-zoom-anim')).toHaveCount(0);
  expect(await overlapping()).toEqual([]);
});

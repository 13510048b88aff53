import { fileURLToPath } from 'node:url';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { apiSignIn, authHeaders, expect, newMemberData, registerNewMember, test } from '../fixtures.ts';
import { addVehicle, fund, start, stop, type Headers, type Zone } from '../parking-fixtures.ts';

/**
 * Proven by pictures: the main screens of each language, drawn by a Chromium with no
 * Devanagari font of its own at 390x844, compared with the reference images committed beside this
 * spec (`screenshots.spec.ts-snapshots/`). A missing glyph (a box), a text in the wrong language or
 * a layout that breaks changes the picture and fails. Refresh the references after a wanted change:
 * `npx playwright test specs/screenshots.spec.ts --update-snapshots` (docs/conventions.md#tests).
 *
 * Everything that changes from run to run is fixed or masked: the page's clock stands still at one
 * moment, each language has its own new driver with the same name, plate and money, parking in the
 * same always-paid zone; what the server computes with its own clock (a session's id, times, dates
 * and countdown, the zones' paid-now badges), the session's QR code, the member's generated e-mail
 * and phone, and the map (its tiles are not served here) are masked.
 */

/** West Campus, 2 km north of the city centre: Find Parking lists seeded zones only (other specs add theirs at the centre). */
const DRIVER = { latitude: 30.287, longitude: -97.744 };
/** The page's clock: a Tuesday morning in Austin (the greeting and any date on screen depend on it). */
const NOW = new Date('2026-03-10T15:30:00.000Z');
/** The seeded garage at 512 Congress Ave: paid at every hour of every day, at one rate (the seed is deterministic). */
const GARAGE = '1015';

test.use({
  reducedMotion: 'reduce',
  permissions: ['geolocation'],
  geolocation: DRIVER,
  timezoneId: 'America/Chicago',
  colorScheme: 'light',
});

// The languages' tests share nothing: with two workers they run side by side.
test.describe.configure({ mode: 'parallel' });

const LANGUAGES = ['en', 'hi', 'es'] as const;
type Language = (typeof LANGUAGES)[number];

/** The garage as the API lists it: the same zone and price whenever the run happens. */
async function garage(request: APIRequestContext, headers: Headers): Promise<Zone> {
  const op = (await (await request.get('/api/Parking/Operator', { headers })).json()) as {
    Latitude: number;
    Longitude: number;
  };
  const res = await request.get(
    `/api/Parking/Zones/Nearby?lat=${op.Latitude}&lng=${op.Longitude}&radius=2000&limit=100`,
    { headers },
  );
  const zone = ((await res.json()) as Zone[]).find((z) => z.ZoneNumber === GARAGE);
  expect(zone, `seeded zone ${GARAGE}`).toBeDefined();
  expect(zone!.MaxStayMinutes, 'a zone paid around the clock').toBe(1440);
  return zone!;
}

/** What sticks to the viewport stays in its place in the page while a whole-page picture is taken. */
const IN_FLOW = fileURLToPath(new URL('../screenshot.css', import.meta.url));

/**
 * Waits until the screen has its data and its fonts, then compares the whole page (what is below
 * the fold too), or the 390x844 viewport where said, with its reference picture.
 */
async function matches(page: Page, name: string, opts: { mask?: Locator[]; fullPage?: boolean } = {}) {
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  // A masked text fills its line, so that the mask's box has one size whatever the text's length
  // ("9:05 am" or "10:24 pm"); nothing else on the line moves.
  for (const m of opts.mask ?? [])
    await m.evaluateAll((els) =>
      els.forEach((el) => Object.assign((el as HTMLElement).style, { alignSelf: 'stretch', flexGrow: '1' })),
    );
  await expect(page).toHaveScreenshot(name, {
    fullPage: opts.fullPage ?? true,
    stylePath: IN_FLOW,
    animations: 'disabled',
    caret: 'hide',
    scale: 'css',
    // The map (its tiles are not served here, and it draws as its tiles arrive) and the zones'
    // "paid now / free now", which the server computes with its own clock.
    mask: [page.locator('.leaflet-container'), page.getByTestId('payment-badge'), ...(opts.mask ?? [])],
    // A pixel differs when its colour moves by more than Playwright's default threshold (0.2); 10
    // such pixels fail. A ratio (even 1%, 3,300 pixels here) let a changed Hindi word pass.
    maxDiffPixels: 10,
  });
}

for (const lang of LANGUAGES) {
  test(`${lang}: the main screens match their reference pictures`, async ({ page, request }) => {
    test.setTimeout(90_000);
    await page.clock.setFixedTime(NOW);
    const show = async (path: string, ready: (p: Page) => Promise<void>) => {
      await page.goto(path);
      await expect(page.locator('html')).toHaveAttribute('lang', lang);
      await ready(page);
    };

    // The first screen, before anyone signs in.
    await page.goto('/parkit');
    await page.evaluate((l: Language) => localStorage.setItem('language', l), lang);
    await show('/parkit', async (p) => void (await expect(p.getByRole('navigation').first()).toBeVisible()));
    await matches(page, `${lang}-landing.png`);

    // A new driver of this language (signed up in English: the fixtures read the English screens),
    // Riley Tester with one plate, $40 and one session ended at once in the garage.
    await page.evaluate(() => localStorage.setItem('language', 'en'));
    // Its e-mail's unique part is digits, which the font draws at one width: the masked address
    // wraps the same way on every run.
    const { PhoneNumber } = newMemberData();
    const member = await registerNewMember(page, request, {
      PhoneNumber,
      EmailAddress: `riley.${PhoneNumber}@example.test`,
    });
    const headers = authHeaders(await apiSignIn(request, member.UserName, member.Password));
    const vehicle = await addVehicle(request, headers, `SHOT${lang.toUpperCase()}1`);
    await fund(request, headers, 40);
    const zone = await garage(request, headers);
    const ended = await start(request, headers, zone.ZoneId, vehicle, 30);
    await stop(request, headers, ended.SessionId);
    await page.evaluate((l: Language) => localStorage.setItem('language', l), lang);

    await show('/homepage', async (p) => void (await expect(p.getByRole('heading').first()).toBeVisible()));
    await matches(page, `${lang}-home.png`);

    await show('/findparking', async (p) => expect(p.getByRole('main').getByRole('listitem').first()).toBeVisible());
    // The nearest zones only: further down the list come zones that other specs add meanwhile.
    await matches(page, `${lang}-find-parking.png`, { fullPage: false });

    // The session's id and its server-stamped dates and times are masked.
    await show(`/ClosingReceipt?id=${ended.SessionId}`, async (p) => expect(p.getByRole('article')).toBeVisible());
    const summary = page.getByRole('article').locator('dl').first();
    await matches(page, `${lang}-receipt.png`, {
      mask: [
        page.getByTestId('session-id'),
        page.locator('[data-testid=session-id] ~ p').last(),
        summary.locator('dd').nth(1),
        summary.locator('dd').nth(2),
      ],
    });

    await show('/pastpark', async (p) => expect(p.getByRole('listitem').first()).toBeVisible());
    await matches(page, `${lang}-past-parking.png`, { mask: [page.getByRole('listitem').locator('p')] });

    await show('/account', async (p) => expect(p.getByTestId('balance')).toBeVisible());
    // The transactions' dates and the spending chart's months come from the server's clock.
    await matches(page, `${lang}-account.png`, {
      mask: [page.getByTestId('transactions').locator('li p.text-xs'), page.locator('div.h-40[role=img]')],
    });

    // The generated username, e-mail and phone are masked; the name stays.
    await show('/profile', async (p) => expect(p.getByRole('heading').first()).toBeVisible());
    await matches(page, `${lang}-profile.png`, {
      mask: [page.getByText(member.EmailAddress), page.getByText(member.PhoneNumber)],
    });

    // A running session: its countdown and end time come from the server's clock, and its proof
    // of payment is a signed code made now.
    const running = await start(request, headers, zone.ZoneId, vehicle, 60);
    await show(`/parkdetails?id=${running.SessionId}`, async (p) => expect(p.getByTestId('plate')).toBeVisible());
    await matches(page, `${lang}-park-details.png`, {
      mask: [
        page.getByTestId('countdown'),
        page.locator('[data-testid=countdown] + p'),
        page.locator('svg[data-token]'),
      ],
    });
  });
}

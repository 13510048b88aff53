import type { APIRequestContext, Browser } from '@playwright/test';
import { authHeaders, expect, signIn, signInAsDemo, test } from '../fixtures.ts';
import { demoOwner, joinedStaff, noSeriousFindings, OWNER } from '../operator-fixtures.ts';

/**
 * The console's zones against the real server: a manager draws a zone on the map and a
 * driver's Find Parking shows it at once; an analyst reads a zone and cannot change it; a zone file
 * with a refused row is checked, then its other rows imported.
 */

/** The demo operator's city centre (Austin), where the demo driver finds parking. */
const AUSTIN = { lat: 30.2672, lng: -97.7431 };

test.use({ reducedMotion: 'reduce' });

/** A zone number no other run or test has. */
const freshNumber = (prefix: string) => `${prefix}${Date.now().toString(36).slice(-6).toUpperCase()}`;

/** A new person with the role at the demo operator (invited by the owner, joined by API), signed in on a desktop. */
async function staffWithRole(browser: Browser, request: APIRequestContext, role: 'manager' | 'analyst') {
  const { owner, operatorId } = await demoOwner(request);
  const { member, token } = await joinedStaff(request, operatorId, owner, role);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await signIn(page, member.UserName, member.Password);
  await expect(page).toHaveURL(/\/operator\/\d+\//);
  return { page, operatorId, token, owner };
}

test('a manager draws a zone on the map; a driver finds it at once', async ({ browser, page, request }) => {
  test.setTimeout(120_000);
  const { page: manager, operatorId } = await staffWithRole(browser, request, 'manager');
  await manager.getByRole('link', { name: 'Zones', exact: true }).click();
  await expect(manager.getByRole('heading', { name: 'Zones', level: 1 })).toBeVisible();
  await expect(manager.getByRole('link', { name: /^Zone / }).first()).toBeVisible();
  await noSeriousFindings(manager);

  await manager.getByRole('link', { name: 'New zone' }).click();
  await expect(manager).toHaveURL(new RegExp(`/operator/${operatorId}/zones/new$`));
  // Typed coordinates bring the map to the street; a click on it places the point there.
  await manager.getByLabel('Latitude').fill(String(AUSTIN.lat));
  await manager.getByLabel('Longitude').fill(String(AUSTIN.lng));
  const map = manager.getByRole('region', { name: 'Map of the zone' });
  const box = (await map.boundingBox())!;
  await map.click({ position: { x: box.width / 2 + 30, y: box.height / 2 } });
  await expect(manager.getByLabel('Longitude')).not.toHaveValue(String(AUSTIN.lng));
  const lng = Number(await manager.getByLabel('Longitude').inputValue());
  expect(Math.abs(lng - AUSTIN.lng)).toBeLessThan(0.01);
  // A curb line of three clicks.
  await manager.getByRole('button', { name: 'Draw a curb line' }).click();
  for (const dx of [-60, 0, 60]) await map.click({ position: { x: box.width / 2 + dx, y: box.height / 2 + 40 } });
  await expect(manager.getByText('Curb: a line of 3 points')).toBeVisible();

  const number = freshNumber('M');
  await manager.getByLabel('Zone number').fill(number);
  await manager.getByLabel('Name', { exact: true }).fill(`Console ${number}`);
  await manager.getByLabel('Address', { exact: true }).fill('200 Console Ave');
  await manager.getByLabel('Capacity (spaces)').fill('14');
  await manager.getByLabel('Rate per hour').fill('3.25');
  await manager.getByRole('button', { name: 'Create zone' }).click();
  await expect(manager.getByRole('heading', { name: `Zone ${number}`, level: 1 })).toBeVisible();
  await expect(manager.getByText('Zone created')).toBeVisible();
  // The zone's page, scanned once the toast (a shared component, scanned on its own screens) is gone.
  await expect(manager.getByText('Zone created')).toBeHidden({ timeout: 15_000 });
  await noSeriousFindings(manager);

  // The driver searches by the number on the sign: the zone is there, at its rate.
  await signInAsDemo(page);
  await page.goto('/findparking');
  await page.getByRole('searchbox', { name: 'Search by zone number or address' }).fill(number);
  const rows = page.getByRole('list', { name: 'Zones' }).getByRole('listitem');
  await expect(rows.first()).toContainText(number);
  await expect(rows.first()).toContainText('200 Console Ave');
  await manager.context().close();
});

test('an analyst reads a zone and cannot change it', async ({ browser, request }) => {
  test.setTimeout(120_000);
  const { page: analyst, operatorId, token, owner } = await staffWithRole(browser, request, 'analyst');
  const list = (await (await request.get(`/api/Operator/${operatorId}/Zones?limit=1`, { headers: owner })).json()) as {
    Zones: { ZoneId: number; ZoneNumber: string }[];
  };
  const zone = list.Zones[0]!;
  await analyst.getByRole('link', { name: 'Zones', exact: true }).click();
  await expect(analyst.getByRole('link', { name: `Zone ${zone.ZoneNumber}` })).toBeVisible();
  await expect(analyst.getByRole('link', { name: 'New zone' })).toHaveCount(0);
  await expect(analyst.getByRole('link', { name: 'Import zones' })).toHaveCount(0);
  await analyst.getByRole('link', { name: `Zone ${zone.ZoneNumber}` }).click();
  await expect(analyst.getByText('Your role can read zones but not change them.')).toBeVisible();
  await expect(analyst.getByLabel('Zone number')).toBeDisabled();
  await expect(analyst.getByRole('button', { name: 'Save zone' })).toHaveCount(0);
  await expect(analyst.getByRole('button', { name: 'Retire zone' })).toHaveCount(0);
  await expect(analyst.getByRole('button', { name: 'Draw a curb line' })).toHaveCount(0);
  // At 390 px nothing is wider than the phone.
  await analyst.setViewportSize({ width: 390, height: 844 });
  expect(await analyst.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await noSeriousFindings(analyst);
  // The server refuses the analyst's change whatever the screen shows.
  const refused = await request.post(`/api/Operator/${operatorId}/Zones/${zone.ZoneId}/Retire`, {
    headers: authHeaders(token),
  });
  expect(refused.status()).toBe(403);
  await analyst.context().close();
});

test('a zone file with a refused row: checked, then its other rows imported', async ({ page }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, OWNER.username, OWNER.password);
  await expect(page).toHaveURL(/\/operator\/\d+\//);
  await page.getByRole('link', { name: 'Zones', exact: true }).click();
  await page.getByRole('link', { name: 'Import zones' }).click();
  await expect(page.getByRole('heading', { name: 'Import zones', level: 1 })).toBeVisible();
  const good = freshNumber('G');
  const bad = freshNumber('B');
  const csv = [
    'zone_number,name,address,lat,lng,rate,max_stay_minutes,capacity',
    `${good},Imported ${good},5 Import St,${AUSTIN.lat},${AUSTIN.lng},2.00,120,6`,
    `${bad},Bad ${bad},6 Import St,95,${AUSTIN.lng},2.00,120,6`,
  ].join('\n');
  await page
    .getByLabel('Zone file (GeoJSON or CSV)')
    .setInputFiles({ name: 'zones.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByText('zones.csv is ready to be checked.')).toBeVisible();
  await page.getByRole('button', { name: 'Check the file' }).click();
  const refused = page.getByRole('table', { name: 'Refused rows' });
  await expect(refused.getByRole('row').filter({ hasText: bad })).toContainText('lat must be between -90 and 90');
  await noSeriousFindings(page);
  await page.getByRole('button', { name: 'Skip the refused rows and import 1 zone' }).click();
  await expect(page.getByRole('heading', { name: 'Imported' })).toBeVisible();
  await expect(page.getByText('1 zone imported').first()).toBeVisible();

  await page.getByRole('link', { name: 'All zones' }).click();
  await page.getByRole('searchbox', { name: 'Number, name or address' }).fill(good);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByRole('link', { name: `Zone ${good}` })).toBeVisible();
  await page.getByRole('searchbox', { name: 'Number, name or address' }).fill(bad);
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page.getByText('No zone matches this search.')).toBeVisible();
});

import { expect, signIn, test } from '../fixtures.ts';
import { OWNER } from '../operator-fixtures.ts';
import { driver, payableZone } from '../parking-fixtures.ts';
import { uuidV5, zoneCdsId } from '../../apps/server/src/opendata/cds-ids.ts';

/**
 * The city's side of open data (docs/open-data.md) against the real server: the owner makes a CDS
 * key in the console's API keys, a driver parks, extends and stops in the app, and the city reads
 * that session in the CDS Events feed with the key: its park_end above its park_start (newest
 * first), one session id, what the driver paid; once the owner revokes the key, the feed says 401.
 */

test.use({ reducedMotion: 'reduce' });

interface CdsEvent {
  event_id: string;
  event_type: string;
  event_session_id: string;
  event_time: number;
  curb_zone_id: string;
  data_source_type: string;
  actual_cost?: number;
  vehicle_license_plate?: string;
}

test('a CDS key from the console reads a session parked in the app as park_end above park_start; revoked, it reads nothing', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, OWNER.username, OWNER.password);
  await expect(page).toHaveURL(/\/operator\/\d+\/dashboard$/);
  await page.getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();
  await page.getByLabel('For').selectOption('cds');
  await page.getByRole('textbox', { name: 'Label' }).fill('City feed (end-to-end test)');
  await page.getByRole('button', { name: 'Make key' }).click();
  const shown = page.getByRole('dialog', { name: 'Your new key' });
  const key = await shown.getByRole('textbox').inputValue();
  expect(key).toMatch(/^pk_[A-Za-z0-9_-]{51}$/);
  await shown.getByRole('button', { name: 'Done' }).click();
  const row = page.getByRole('listitem').filter({ hasText: `${key.slice(0, 11)}…` });
  await expect(row).toContainText('City’s CDS feed');
  await expect(row).toContainText('never used');
  const city = { authorization: `Bearer ${key}` };

  // The driver, on a phone, parks for an hour, extends by 30 minutes and stops.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const phone = await context.newPage();
  const d = await driver(phone, request, { fund: 50 });
  const zone = await payableZone(request, d.headers, d.vehicles[0]!);
  const from = Date.now() - 60_000;
  await phone.goto(`/SelectVehicle?zone=${zone.ZoneId}`);
  await phone.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).click();
  await expect(phone).toHaveURL(/\/parkdetails\?id=\d+$/);
  const id = Number(new URL(phone.url()).searchParams.get('id'));
  await phone.getByRole('button', { name: 'Extend' }).click();
  const extend = phone.getByRole('dialog');
  await extend.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).click();
  await expect(extend).toBeHidden();
  await phone.getByRole('button', { name: 'Stop' }).click();
  await phone.getByRole('dialog').getByRole('button', { name: 'Yes, stop' }).click();
  await expect(phone).toHaveURL(new RegExp(`/ClosingReceipt\\?id=${id}$`));
  const paid = (await (await request.get(`/api/Parking/Session/${id}`, { headers: d.headers })).json()) as {
    AmountPaid: number;
  };
  await context.close();

  // The city reads the window with the key.
  const res = await request.get(`/cds/events/events?start_time=${from}&end_time=${Date.now() + 60_000}`, {
    headers: city,
  });
  expect(res.status(), await res.text()).toBe(200);
  expect(res.headers()['content-type']).toMatch(/^application\/vnd\.cds\+json/);
  const events = ((await res.json()) as { data: { events: CdsEvent[] } }).data.events;
  const times = events.map((e) => e.event_time);
  expect(times).toEqual([...times].sort((a, b) => b - a));
  const mine = events.filter((e) => e.event_session_id === uuidV5(`parkit:session:${id}`));
  expect(mine.map((e) => e.event_type)).toEqual(['park_end', 'park_start']);
  const [end, start] = mine as [CdsEvent, CdsEvent];
  expect(start.curb_zone_id).toBe(zoneCdsId(zone.ZoneId));
  expect(end.curb_zone_id).toBe(start.curb_zone_id);
  expect(end.data_source_type).toBe('payment');
  expect(end.event_time).toBeGreaterThanOrEqual(start.event_time);
  expect(end.actual_cost).toBe(Math.round(paid.AmountPaid * 100));
  expect(start.actual_cost).toBeUndefined();
  // The demo operator does not show plates: the feed has none.
  expect(mine.every((e) => e.vehicle_license_plate === undefined)).toBe(true);
  // The zone is the one the Curbs API publishes.
  const curbs = (await (await request.get(`/cds/curbs/zones/${start.curb_zone_id}`)).json()) as {
    data: { curb_zone_id: string };
  };
  expect(curbs.data.curb_zone_id).toBe(start.curb_zone_id);

  // The console shows the key used; the owner revokes it and the feed refuses it.
  await page.reload();
  await expect(row).toContainText('last used');
  await row.getByRole('button', { name: 'Revoke' }).click();
  await page
    .getByRole('dialog', { name: `Revoke ${key.slice(0, 11)}…?` })
    .getByRole('button', { name: 'Revoke' })
    .click();
  await expect(row).toContainText('Revoked');
  expect((await request.get('/cds/events/status', { headers: city })).status()).toBe(401);
  // Both are in the audit log, in the console's words.
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByText('API key revoked').first()).toBeVisible();
  await expect(page.getByText('API key made').first()).toBeVisible();
});

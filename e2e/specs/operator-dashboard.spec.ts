import { readFile } from 'node:fs/promises';
import { expect, signIn, test } from '../fixtures.ts';
import { demoOwner, noSeriousFindings, OWNER } from '../operator-fixtures.ts';
import { driver, payableZone, start } from '../parking-fixtures.ts';

/**
 * The operator's dashboard and reports (docs/reports.md) against the real server: a driver parks,
 * the owner's open dashboard shows the running session and the revenue without a reload (it asks
 * again every 15 s), and the report's sessions CSV has the session's row.
 */

test.use({ reducedMotion: 'reduce' });

const cents = (text: string | null) => Math.round(Number((text ?? '').replace(/[^0-9.]/g, '')) * 100);

test('a driver parks: the open dashboard shows the running session and the revenue; the report’s CSV has the row', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, OWNER.username, OWNER.password);
  await expect(page).toHaveURL(/\/operator\/\d+\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  const running = page.getByTestId('running-now');
  const revenue = page.getByTestId('revenue-today');
  await expect(running).toBeVisible();
  // The server's own figures: other specs park and stop (with refunds) meanwhile, so the shown
  // figures move both ways; the screen must show what the server says, this session included.
  const { owner, operatorId } = await demoOwner(request);
  const server = async () =>
    (await (await request.get(`/api/Operator/${operatorId}/Dashboard`, { headers: owner })).json()) as {
      RunningSessions: number;
      Today: { Sessions: number; RevenueCents: number };
    };
  const before = await server();
  // The dashboard's accessibility, its map's drawing left out (the map's region and label are checked).
  await expect(page.getByRole('region', { name: /^Occupancy map/ }).locator('.leaflet-container')).toBeVisible();
  await noSeriousFindings(page, { exclude: ['.leaflet-container'] });

  // The driver, in a browser of their own, parks for an hour in a zone that charges now.
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const d = await driver(await context.newPage(), request, { fund: 50 });
  const zone = await payableZone(request, d.headers, d.vehicles[0]!);
  const session = await start(request, d.headers, zone.ZoneId, d.vehicles[0]!, 60);
  const paid = (await (
    await request.get(`/api/Parking/Session/${session.SessionId}`, { headers: d.headers })
  ).json()) as { AmountPaid: number };
  await context.close();

  // No reload: the dashboard asks again by itself, and shows the server's figures once they count
  // this session (today's sessions only grow).
  await expect
    .poll(
      async () => {
        const now = await server();
        const shown = { running: Number(await running.textContent()), revenue: cents(await revenue.textContent()) };
        return (
          now.Today.Sessions > before.Today.Sessions &&
          shown.running === now.RunningSessions &&
          shown.revenue === now.Today.RevenueCents
        );
      },
      { timeout: 45_000 },
    )
    .toBe(true);
  const row = page.getByTestId(`zone-${zone.ZoneNumber}`);
  await expect(row).toContainText(/[1-9]\d* \/ \d+/);

  // Reports: today's figures, and the sessions behind them as CSV.
  await page.getByRole('link', { name: 'Reports' }).click();
  await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  await expect(page.getByTestId('report-revenue')).toBeVisible();
  expect(cents(await page.getByTestId('report-revenue').textContent())).toBeGreaterThanOrEqual(
    Math.round(paid.AmountPaid * 100),
  );
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Sessions (CSV)' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^parkit-report-sessions-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = await readFile((await download.path())!, 'utf8');
  const [head, ...lines] = csv.trim().split('\r\n');
  const names = head!.split(',');
  const rows = lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [names[i]!, v])));
  const mine = rows.find((r) => Number(r.SessionId) === session.SessionId);
  expect(mine, `session ${session.SessionId} in the CSV`).toBeTruthy();
  expect(mine!.ZoneNumber).toBe(zone.ZoneNumber);
  expect(Number(mine!.RevenueCents)).toBe(Math.round(paid.AmountPaid * 100));

  // Text wraps on a phone's width too.
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});

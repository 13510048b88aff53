import AxeBuilder from '@axe-core/playwright';
import { apiSignIn, authHeaders, expect, signIn, test } from '../fixtures.ts';
import { joinedStaff, OWNER } from '../operator-fixtures.ts';
import { driver, money } from '../parking-fixtures.ts';

/**
 * Prices in the operator's console (docs/pricing.md#the-consoles-api) against the real server: a
 * manager builds a progressive weekday policy with a weekend flat rate, previews a stay, publishes
 * it and prices a zone by it; the driver's quote for that zone is the preview's amount, and Find
 * Parking shows the policy's rate.
 */

test.use({ reducedMotion: 'reduce' });

test('a manager builds a progressive weekday and flat weekend policy, previews, publishes; the quote matches', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const owner = authHeaders(await apiSignIn(request, OWNER.username, OWNER.password));
  const [mine] = (await (await request.get('/api/Operator/Mine', { headers: owner })).json()) as {
    OperatorId: number;
  }[];
  const operatorId = mine!.OperatorId;
  const stamp = Date.now().toString(36).slice(-6).toUpperCase();
  const zone = (await (
    await request.post(`/api/Operator/${operatorId}/Zones`, {
      headers: owner,
      data: {
        ZoneNumber: `P${stamp}`,
        Name: `Prices ${stamp}`,
        Address: '1 Prices St',
        Latitude: 30.2672,
        Longitude: -97.7431,
        Capacity: 10,
        RatePerHour: 9,
        MaxStayMinutes: 600,
        PaidDays: [1, 2, 3, 4, 5, 6, 7],
        PaidFrom: '00:00',
        PaidUntil: '24:00',
      },
    })
  ).json()) as { ZoneId: number; ZoneNumber: string; Name: string };

  const { member } = await joinedStaff(request, operatorId, owner, 'manager');
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  const manager = await context.newPage();
  await signIn(manager, member.UserName, member.Password);
  await manager.getByRole('link', { name: 'Prices' }).click();
  await expect(manager.getByRole('heading', { name: 'Prices', level: 1 })).toBeVisible();
  await manager.getByRole('button', { name: 'New policy' }).click();

  const editor = manager.getByRole('form', { name: 'Policy editor' });
  await editor.getByLabel('Policy name').fill(`Stadium ${stamp}`);
  await editor.getByLabel('Longest stay (minutes)').fill('600');
  // Span 1: weekdays all day, $2 the first hour, $3 each further hour. (With hours, say 08:00-18:00,
  // a run on a weekday evening found the stay free and the quote refused: the test ran on the clock.)
  const weekday = editor.getByRole('group', { name: 'Time span 1' });
  await weekday.getByLabel('Name', { exact: true }).fill('Weekday');
  for (const d of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri']) await weekday.getByLabel(d, { exact: true }).check();
  await weekday.getByLabel(/Progressive/).check();
  await weekday.getByLabel('First hour, per hour').fill('2');
  await weekday.getByLabel('Each further hour, per hour').fill('3');
  // Span 2: weekends all day at $1.50 an hour.
  await editor.getByRole('button', { name: 'Add a time span' }).click();
  const weekend = editor.getByRole('group', { name: 'Time span 2' });
  await weekend.getByLabel('Name', { exact: true }).fill('Weekend');
  for (const d of ['Sat', 'Sun']) await weekend.getByLabel(d, { exact: true }).check();
  await weekend.getByLabel('Per hour', { exact: true }).fill('1.5');

  // The preview of a 2-hour stay starting now (the browser's clock, to the minute).
  const preview = manager.getByRole('complementary', { name: 'Preview' });
  const now = await manager.evaluate(() => {
    const d = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  });
  // Every draft the box prices is kept: the last one is priced again at the quote's own start.
  const drafts: { Body: unknown; StartsAt: string; DurationMinutes: number }[] = [];
  manager.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/Policies/Preview'))
      drafts.push(r.postDataJSON() as { Body: unknown; StartsAt: string; DurationMinutes: number });
  });
  await preview.getByLabel('Stay starting').fill(now);
  await preview.getByLabel('For (minutes)').fill('120');
  const amount = preview.getByTestId('preview-amount');
  // The box is busy until the server has priced the draft as it now stands.
  await expect(preview.getByTestId('preview-result')).toHaveAttribute('aria-busy', 'false');
  await expect(amount).toBeVisible();
  await expect(preview.getByText(/^(Weekday|Weekend|Free) · /).first()).toBeVisible();
  const previewed = (await amount.textContent()) ?? '';
  // The draft the box shows the price of (the box prices the draft again as it changes).
  const draft = drafts.at(-1)!;
  expect(previewed).toMatch(/^\$\d+\.\d\d$/);

  const axe = await new AxeBuilder({ page: manager }).analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);

  await editor.getByRole('button', { name: 'Create and publish' }).click();
  await expect(manager.getByText('Version 1 published')).toBeVisible();
  // The price events' picker further down lists the same zone: act in this policy's own section.
  const assigning = manager.getByRole('region', { name: 'Zones priced by this policy' });
  await assigning.getByLabel('Find zones').fill(zone.ZoneNumber);
  await assigning.getByRole('checkbox', { name: `${zone.ZoneNumber} · ${zone.Name}` }).check();
  await assigning.getByRole('button', { name: 'Price the chosen zones' }).click();
  await expect(manager.getByText(`Zones priced by Stadium ${stamp}`)).toBeVisible();

  // The driver's quote for that zone, now, for 2 hours: the preview's amount.
  const { headers, vehicles } = await driver(page, request, { fund: 50 });
  const quote = await request.post('/api/Parking/Quote', {
    headers,
    data: { ZoneId: zone.ZoneId, VehicleId: vehicles[0], DurationMinutes: 120 },
  });
  expect(quote.status(), await quote.text()).toBe(200);
  const q = (await quote.json()) as { StartsAt: string; ParkingAmount: number; Spans: { Name: string | null }[] };
  // The draft the preview box priced last, priced again at the quote's start: a stay that starts a
  // minute later than the box's (the clock moved on while the manager published) can cross a span
  // boundary and cost another amount, so the two are compared at one start.
  expect(draft.DurationMinutes).toBe(120);
  const atQuoteStart = await request.post(`/api/Operator/${operatorId}/Policies/Preview`, {
    headers: owner,
    data: { Body: draft.Body, StartsAt: q.StartsAt, DurationMinutes: 120 },
  });
  expect(atQuoteStart.status(), await atQuoteStart.text()).toBe(200);
  expect(money(q.ParkingAmount)).toBe(money(((await atQuoteStart.json()) as { Amount: number }).Amount));
  // And the box showed what the engine answers for its own start.
  const atBoxStart = await request.post(`/api/Operator/${operatorId}/Policies/Preview`, {
    headers: owner,
    data: { Body: draft.Body, StartsAt: draft.StartsAt, DurationMinutes: 120 },
  });
  expect(money(((await atBoxStart.json()) as { Amount: number }).Amount)).toBe(previewed);
  // Find Parking shows the policy's rate now, not the zone's $9 preset.
  const shown = (await (await request.get(`/api/Parking/Zones/${zone.ZoneId}`, { headers })).json()) as {
    RatePerHour: number;
  };
  expect([0, 1.5, 2]).toContain(shown.RatePerHour);
  // The screen at a phone's width: nothing wider than it.
  await manager.setViewportSize({ width: 390, height: 844 });
  await expect(manager.getByRole('heading', { name: 'Prices', level: 1 })).toBeVisible();
  expect(await manager.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await context.close();
});

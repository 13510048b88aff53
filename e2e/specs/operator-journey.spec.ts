import type { Browser, Page } from '@playwright/test';
import { apiSignIn, authHeaders, expect, signIn, test } from '../fixtures.ts';
import { inviteCode, joinedStaff, OWNER, verifiedMember } from '../operator-fixtures.ts';
import { balance, driver, stop } from '../parking-fixtures.ts';

/**
 * The operator's side end to end ("Done means"), against the real server: the demo
 * operator's owner invites a manager; the manager draws a zone on the map, builds a progressive
 * weekday policy with a weekend flat rate, previews a stay and prices the zone by it; a driver's
 * Find Parking shows the zone at once and the quote is the preview's price; the driver parks; the
 * dashboard shows the session and its revenue; the manager refunds half; the report and the month's
 * statement reconcile with the driver's wallet ledger; an analyst reads all of it and changes none;
 * another operator (made by `npm run operator:create` before the server starts, see
 * playwright.config.ts) sees none of it.
 */

test.use({ reducedMotion: 'reduce' });

/** The second operator's owner (playwright.config.ts makes it with the CLI). */
const RIVAL = { username: 'e2e_rival', password: 'e2e-rival-pass' } as const;
const AUSTIN = { lat: 30.2672, lng: -97.7431 };
const TIMEZONE = 'America/Chicago';

const cents = (text: string | null) => Math.round(Number((text ?? '').replace(/[^0-9.]/g, '')) * 100);

/** A desktop browser of its own, in the operator's time zone (the preview reads the typed time as local). */
async function desktop(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    reducedMotion: 'reduce',
    timezoneId: TIMEZONE,
  });
  return context.newPage();
}

test('owner invites a manager; zone, policy, preview; a driver parks at the previewed price; dashboard, refund, report and settlement reconcile; an analyst reads; another operator sees nothing', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(300_000);
  const stamp = Date.now().toString(36).slice(-6).toUpperCase();
  const number = `J${stamp}`;
  const zoneName = `Journey ${stamp}`;
  const policyName = `Journey policy ${stamp}`;

  // 1. The owner invites a manager by phone from the console; the manager joins with the code.
  const owner = await desktop(browser);
  await signIn(owner, OWNER.username, OWNER.password);
  await expect(owner).toHaveURL(/\/operator\/\d+\/dashboard$/);
  const operatorId = Number(/\/operator\/(\d+)\//.exec(owner.url())![1]);
  await owner.getByRole('link', { name: 'People' }).click();
  await expect(owner.getByRole('heading', { name: 'People', level: 1 })).toBeVisible();
  const person = await verifiedMember(request);
  await owner.getByLabel('Phone or e-mail').fill(person.PhoneNumber);
  await owner.getByLabel('Role', { exact: true }).selectOption('manager');
  await owner.getByRole('button', { name: 'Send invitation' }).click();
  await expect(owner.getByText('Invitation sent')).toBeVisible();

  const manager = await desktop(browser);
  await signIn(manager, person.UserName, person.Password);
  await manager.goto('/operator/join');
  await manager.getByLabel('Invitation code').fill(await inviteCode(request, person.PhoneNumber));
  await manager.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(manager.getByText('Your role: Manager')).toBeVisible();
  const managerHeaders = authHeaders(await apiSignIn(request, person.UserName, person.Password));

  // 2. The manager draws the zone on the map: its point, then an area of four corners; charged
  // every day at all hours by the zone's own fields, so that the policy alone decides the price.
  await manager.getByRole('link', { name: 'Zones', exact: true }).click();
  await manager.getByRole('link', { name: 'New zone' }).click();
  await expect(manager).toHaveURL(new RegExp(`/operator/${operatorId}/zones/new$`));
  await manager.getByLabel('Latitude').fill(String(AUSTIN.lat));
  await manager.getByLabel('Longitude').fill(String(AUSTIN.lng));
  const map = manager.getByRole('region', { name: 'Map of the zone' });
  const box = (await map.boundingBox())!;
  await map.click({ position: { x: box.width / 2, y: box.height / 2 } });
  await manager.getByRole('button', { name: 'Draw an area' }).click();
  for (const [dx, dy] of [
    [-50, -40],
    [50, -40],
    [50, 40],
    [-50, 40],
  ] as const)
    await map.click({ position: { x: box.width / 2 + dx, y: box.height / 2 + dy } });
  await expect(manager.getByText('Curb: an area of 4 corners')).toBeVisible();
  await manager.getByLabel('Zone number').fill(number);
  await manager.getByLabel('Name', { exact: true }).fill(zoneName);
  await manager.getByLabel('Address', { exact: true }).fill('1 Journey St');
  await manager.getByLabel('Capacity (spaces)').fill('14');
  await manager.getByLabel('Rate per hour').fill('9');
  await manager.getByLabel('Maximum stay (minutes)').fill('600');
  await manager.getByLabel('Paid from').fill('00:00');
  await manager.getByLabel('Paid until').fill('24:00');
  await manager.getByRole('button', { name: 'Create zone' }).click();
  await expect(manager.getByRole('heading', { name: `Zone ${number}`, level: 1 })).toBeVisible();
  const zoneId = Number(/\/zones\/(\d+)$/.exec(manager.url())![1]);

  // 3. The policy: weekdays progressive ($2 the first hour, $3 each further hour), weekends flat
  // ($1.50 an hour), all day; previewed for an hour starting now, published, and the zone priced by it.
  await manager.getByRole('link', { name: 'Prices' }).click();
  await expect(manager.getByRole('heading', { name: 'Prices', level: 1 })).toBeVisible();
  await manager.getByRole('button', { name: 'New policy' }).click();
  const editor = manager.getByRole('form', { name: 'Policy editor' });
  await editor.getByLabel('Policy name').fill(policyName);
  await editor.getByLabel('Longest stay (minutes)').fill('600');
  const weekday = editor.getByRole('group', { name: 'Time span 1' });
  await weekday.getByLabel('Name', { exact: true }).fill('Weekday');
  for (const d of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri']) await weekday.getByLabel(d, { exact: true }).check();
  await weekday.getByLabel(/Progressive/).check();
  await weekday.getByLabel('First hour, per hour').fill('2');
  await weekday.getByLabel('Each further hour, per hour').fill('3');
  await editor.getByRole('button', { name: 'Add a time span' }).click();
  const weekend = editor.getByRole('group', { name: 'Time span 2' });
  await weekend.getByLabel('Name', { exact: true }).fill('Weekend');
  for (const d of ['Sat', 'Sun']) await weekend.getByLabel(d, { exact: true }).check();
  await weekend.getByLabel('Per hour', { exact: true }).fill('1.5');

  const drafts: { Body: unknown; StartsAt: string; DurationMinutes: number }[] = [];
  manager.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/Policies/Preview'))
      drafts.push(r.postDataJSON() as { Body: unknown; StartsAt: string; DurationMinutes: number });
  });
  const preview = manager.getByRole('complementary', { name: 'Preview' });
  const now = await manager.evaluate(() => {
    const d = new Date();
    const pad = (n: number) => String(n).padStart(2, '0');
    return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
  });
  await preview.getByLabel('Stay starting').fill(now);
  await preview.getByLabel('For (minutes)').fill('60');
  await expect(preview.getByTestId('preview-result')).toHaveAttribute('aria-busy', 'false');
  const amount = preview.getByTestId('preview-amount');
  await expect(amount).toHaveText(/^\$\d+\.\d\d$/);
  await expect(preview.getByText(/^(Weekday|Weekend) · /).first()).toBeVisible();
  const previewed = cents(await amount.textContent());
  const draft = drafts.at(-1)!;
  expect(draft.DurationMinutes).toBe(60);
  // An hour on a weekday is the first hour's $2, on a weekend $1.50 (across midnight, a share of each).
  expect(previewed).toBeGreaterThanOrEqual(150);
  expect(previewed).toBeLessThanOrEqual(200);

  await editor.getByRole('button', { name: 'Create and publish' }).click();
  await expect(manager.getByText('Version 1 published')).toBeVisible();
  // The price events' picker further down lists the same zone: act in this policy's own section.
  const assigning = manager.getByRole('region', { name: 'Zones priced by this policy' });
  await assigning.getByLabel('Find zones').fill(number);
  await assigning.getByRole('checkbox', { name: `${number} · ${zoneName}` }).check();
  await assigning.getByRole('button', { name: 'Price the chosen zones' }).click();
  await expect(manager.getByText(`Zones priced by ${policyName}`)).toBeVisible();

  // The dashboard, open before the driver parks (it asks again by itself).
  await manager.getByRole('link', { name: 'Dashboard' }).click();
  const running = manager.getByTestId('running-now');
  const revenue = manager.getByTestId('revenue-today');
  await expect(running).toBeVisible();
  // The busiest zones are listed; an empty one is not among them yet.
  const zoneRow = manager.getByTestId(`zone-${number}`);
  const before = { running: Number(await running.textContent()), revenue: cents(await revenue.textContent()) };

  // 4. A driver's Find Parking shows the zone at once; the quote is the preview's price; they park.
  const d = await driver(page, request, { fund: 50 });
  const funded = Math.round((await balance(request, d.headers)) * 100);
  await page.goto('/findparking');
  await page.getByRole('searchbox', { name: 'Search by zone number or address' }).fill(number);
  const rows = page.getByRole('list', { name: 'Zones' }).getByRole('listitem').filter({ hasText: number });
  await expect(rows.first()).toContainText('1 Journey St');
  const quotes = new Map<string, { QuoteId: string; StartsAt: string; ParkingAmount: number }>();
  page.on('response', async (r) => {
    if (r.request().method() === 'POST' && r.url().endsWith('/api/Parking/Quote') && r.ok()) {
      const q = (await r.json()) as { QuoteId: string; StartsAt: string; ParkingAmount: number };
      quotes.set(q.QuoteId, q);
    }
  });
  let startedWith = '';
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/Parking/Start'))
      startedWith = (r.postDataJSON() as { QuoteId: string }).QuoteId;
  });
  await rows.first().getByRole('button').click();
  await page.getByRole('dialog').getByRole('link', { name: 'Park here' }).click();
  await expect(page).toHaveURL(new RegExp(`/confirmlocation\\?zone=${zoneId}$`));
  await page.getByRole('link', { name: 'Continue' }).click();
  await expect(page.getByTestId('duration')).toHaveText('1 h');
  const total = page.getByTestId('quote-total');
  await expect(total).toHaveText(/^\$\d+\.\d{2}$/);
  await page.getByRole('button', { name: `Pay ${(await total.textContent())!}` }).click();
  await expect(page).toHaveURL(/\/parkdetails\?id=\d+$/);
  const sessionId = Number(new URL(page.url()).searchParams.get('id'));
  const quote = quotes.get(startedWith);
  expect(quote, 'the quote the session started with').toBeTruthy();
  // The quote is what the previewed draft costs at the quote's own start (a minute later than the
  // box's can cross midnight into the weekend), and the box showed the engine's price at its start.
  const at = async (startsAt: string) => {
    const res = await request.post(`/api/Operator/${operatorId}/Policies/Preview`, {
      headers: managerHeaders,
      data: { Body: draft.Body, StartsAt: startsAt, DurationMinutes: 60 },
    });
    expect(res.status(), await res.text()).toBe(200);
    return ((await res.json()) as { Amount: number }).Amount;
  };
  expect(Math.round(quote!.ParkingAmount * 100)).toBe(Math.round((await at(quote!.StartsAt)) * 100));
  expect(Math.round((await at(draft.StartsAt)) * 100)).toBe(previewed);
  const paid = Math.round(
    (
      (await (await request.get(`/api/Parking/Session/${sessionId}`, { headers: d.headers })).json()) as {
        AmountPaid: number;
      }
    ).AmountPaid * 100,
  );
  expect(paid).toBeGreaterThanOrEqual(Math.round(quote!.ParkingAmount * 100));

  // 5. The dashboard shows the running session in its zone and the revenue, without a reload.
  await expect(zoneRow).toContainText('1 / 14', { timeout: 25_000 });
  await expect
    .poll(async () => Number(await running.textContent()), { timeout: 25_000 })
    .toBeGreaterThan(before.running);
  await expect
    .poll(async () => cents(await revenue.textContent()), { timeout: 25_000 })
    .toBeGreaterThanOrEqual(before.revenue + paid);

  // 6. The driver stops; the manager refunds half of what the session kept.
  await stop(request, d.headers, sessionId);
  const receipt = async () =>
    (await (await request.get(`/api/Parking/Session/${sessionId}`, { headers: d.headers })).json()) as {
      AmountPaid: number;
      RefundedAmount: number;
    };
  const kept = Math.round((await receipt()).AmountPaid * 100);
  const half = Math.floor(kept / 2);
  expect(half).toBeGreaterThan(0);
  await manager.getByRole('link', { name: 'Sessions' }).click();
  await expect(manager.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible();
  await manager
    .getByTestId('operator-sessions')
    .getByRole('button', { name: new RegExp(`Session ${sessionId} `) })
    .click();
  await manager.getByRole('button', { name: 'Refund', exact: true }).click();
  const dialog = manager.getByRole('dialog', { name: `Refund session ${sessionId}` });
  await dialog.getByLabel(/^Amount/).fill((half / 100).toFixed(2));
  await dialog.getByLabel('Reason').fill('Half back: the sign was hidden');
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(manager.getByText('Half back: the sign was hidden')).toBeVisible();

  // 7. The ledger: what left the driver's wallet for the session, net of what came back.
  const after = await receipt();
  const ledger = funded - Math.round((await balance(request, d.headers)) * 100);
  expect(ledger).toBe(Math.round(after.AmountPaid * 100));
  expect(ledger).toBe(kept - half);

  // The report for today and this zone is the ledger's cents.
  await manager.getByRole('link', { name: 'Reports' }).click();
  await expect(manager.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  await manager.getByRole('checkbox', { name: `${number} ${zoneName}` }).check();
  await expect(manager.getByTestId('report-sessions')).toHaveText('1');
  await expect.poll(async () => cents(await manager.getByTestId('report-revenue').textContent())).toBe(ledger);
  expect(cents(await manager.getByTestId('report-refunds').textContent())).toBeGreaterThanOrEqual(half);

  // The month's statement, issued now, holds the session's ledger entries: they add up to the same cents.
  const month = new Intl.DateTimeFormat('en-CA', { timeZone: TIMEZONE }).format(new Date()).slice(0, 7);
  await manager.getByRole('link', { name: 'Settlement' }).click();
  await expect(manager.getByRole('heading', { name: 'Settlement', level: 1 })).toBeVisible();
  await manager.getByLabel('Period').selectOption('month');
  await manager.getByLabel('Month (YYYY-MM)').fill(month);
  await manager.getByRole('button', { name: 'Issue statement' }).click();
  await expect(manager.getByTestId('statement')).toBeVisible();
  const statements = (await (
    await request.get(`/api/Operator/${operatorId}/Statements`, { headers: managerHeaders })
  ).json()) as { StatementId: number }[];
  const lines = (
    await Promise.all(
      statements.map(
        async (s) =>
          (await (
            await request.get(`/api/Operator/${operatorId}/Statements/${s.StatementId}`, { headers: managerHeaders })
          ).json()) as { Lines: { SessionId: number; Amount: number }[] },
      ),
    )
  )
    .flatMap((s) => s.Lines)
    .filter((l) => l.SessionId === sessionId);
  expect(lines.length).toBeGreaterThanOrEqual(2);
  expect(lines.reduce((a, l) => a + Math.round(l.Amount * 100), 0)).toBe(ledger);

  // 8. An analyst reads the zone, the session and the report, and changes none of them.
  const ownerHeaders = authHeaders(await apiSignIn(request, OWNER.username, OWNER.password));
  const { member: analystMember, token: analystToken } = await joinedStaff(
    request,
    operatorId,
    ownerHeaders,
    'analyst',
  );
  const analyst = await desktop(browser);
  await signIn(analyst, analystMember.UserName, analystMember.Password);
  await expect(analyst).toHaveURL(/\/operator\/\d+\/dashboard$/);
  await expect(analyst.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await analyst.goto(`/operator/${operatorId}/zones/${zoneId}`);
  await expect(analyst.getByRole('heading', { name: `Zone ${number}`, level: 1 })).toBeVisible();
  await expect(analyst.getByText('Your role can read zones but not change them.')).toBeVisible();
  await expect(analyst.getByLabel('Zone number')).toBeDisabled();
  await expect(analyst.getByRole('button', { name: 'Save zone' })).toHaveCount(0);
  await analyst.getByRole('link', { name: 'Sessions' }).click();
  await analyst
    .getByTestId('operator-sessions')
    .getByRole('button', { name: new RegExp(`Session ${sessionId} `) })
    .click();
  await expect(analyst.getByTestId('operator-session')).toContainText(number);
  await expect(analyst.getByText('Half back: the sign was hidden')).toBeVisible();
  await expect(analyst.getByRole('button', { name: 'Refund', exact: true })).toHaveCount(0);
  // As the manager's step: the page first, then the zone, then its one session (checked before the
  // list had loaded, the figure stayed the whole operator's, which other specs' sessions swell).
  await analyst.getByRole('link', { name: 'Reports' }).click();
  await expect(analyst.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible();
  const analystZone = analyst.getByRole('checkbox', { name: `${number} ${zoneName}` });
  await analystZone.check();
  await expect(analystZone).toBeChecked();
  await expect(analyst.getByTestId('report-sessions')).toHaveText('1');
  await expect.poll(async () => cents(await analyst.getByTestId('report-revenue').textContent())).toBe(ledger);
  const analystHeaders = authHeaders(analystToken);
  const refused = [
    await request.post(`/api/Operator/${operatorId}/Sessions/${sessionId}/Refund`, {
      headers: { ...analystHeaders, 'idempotency-key': `e2e-j-${stamp}-a` },
      data: { Amount: 0.01, Reason: 'not mine to give' },
    }),
    await request.post(`/api/Operator/${operatorId}/Zones/${zoneId}/Retire`, { headers: analystHeaders }),
    await request.post(`/api/Operator/${operatorId}/Statements`, {
      headers: analystHeaders,
      data: { Period: 'day', Start: new Intl.DateTimeFormat('en-CA', { timeZone: TIMEZONE }).format(new Date()) },
    }),
  ];
  expect(refused.map((r) => r.status())).toEqual([403, 403, 403]);
  expect(Math.round((await receipt()).RefundedAmount * 100)).toBe(Math.round(after.RefundedAmount * 100));

  // 9. Another operator's owner: none of it, by the demo operator's path or by their own.
  const rival = authHeaders(await apiSignIn(request, RIVAL.username, RIVAL.password));
  const [theirs] = (await (await request.get('/api/Operator/Mine', { headers: rival })).json()) as {
    OperatorId: number;
  }[];
  expect(theirs!.OperatorId).not.toBe(operatorId);
  const rivalId = theirs!.OperatorId;
  const hidden = [
    await request.get(`/api/Operator/${operatorId}/Zones/${zoneId}`, { headers: rival }),
    await request.get(`/api/Operator/${operatorId}/Dashboard`, { headers: rival }),
    await request.get(`/api/Operator/${rivalId}/Zones/${zoneId}`, { headers: rival }),
    await request.get(`/api/Operator/${rivalId}/Sessions/${sessionId}`, { headers: rival }),
    await request.post(`/api/Operator/${rivalId}/Sessions/${sessionId}/Refund`, {
      headers: { ...rival, 'idempotency-key': `e2e-j-${stamp}-r` },
      data: { Amount: 0.01, Reason: 'not ours' },
    }),
  ];
  expect(hidden.map((r) => r.status())).toEqual([404, 404, 404, 404, 404]);
  const rivalSessions = await (await request.get(`/api/Operator/${rivalId}/Sessions`, { headers: rival })).text();
  expect(rivalSessions).not.toContain(number);
  const rivalAudit = await (await request.get(`/api/Operator/${rivalId}/Audit`, { headers: rival })).text();
  expect(rivalAudit).not.toContain(number);
  expect(rivalAudit).not.toContain(policyName);
  // Their console shows their own (empty) dashboard.
  const rivalPage = await desktop(browser);
  await signIn(rivalPage, RIVAL.username, RIVAL.password);
  await expect(rivalPage).toHaveURL(new RegExp(`/operator/${rivalId}/dashboard$`));
  await expect(rivalPage.getByTestId('running-now')).toHaveText('0');
  await rivalPage.getByRole('link', { name: 'Zones', exact: true }).click();
  await expect(rivalPage.getByRole('heading', { name: 'Zones', level: 1 })).toBeVisible();
  await expect(rivalPage.getByRole('link', { name: `Zone ${number}` })).toHaveCount(0);
  // The same search finds the zone at its own operator, and nothing at theirs.
  const search = async (id: number, headers: Record<string, string>) =>
    ((await (await request.get(`/api/Operator/${id}/Zones?q=${number}`, { headers })).json()) as { Zones: unknown[] })
      .Zones.length;
  expect(await search(operatorId, managerHeaders)).toBe(1);
  expect(await search(rivalId, rival)).toBe(0);

  for (const p of [owner, manager, analyst, rivalPage]) await p.context().close();
});

import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { authHeaders, expect, signIn, test } from '../fixtures.ts';
import { demoOwner, joinedStaff, noSeriousFindings } from '../operator-fixtures.ts';
import { balance, driver, money } from '../parking-fixtures.ts';

/**
 * Permits and citations end to end (docs/permits.md, docs/citations.md,
 * docs/enforcement.md), in Chromium against the real server: a resident applies for a resident
 * permit with a PDF proof; a manager approves it in the console; the resident gives a visitor day to
 * a plate; the officer's check on /enforcement finds both rights; the officer, offline after the
 * zone's download, cites two unpaid plates, and the queued citations are sent once back online; the
 * driver of the first plate pays and contests at /citations, the manager cancels it and the fine goes
 * back to the wallet; the driver of the second plate pays theirs. axe scans /permits, /enforcement
 * and /citations along the way.
 *
 * Set up through the API, as no screen of the flow does it: the zone, the violation and the permit
 * type (the console's own screens, tested in their specs), the staff (invited and joined), the
 * drivers and their wallets.
 */

// The demo operator's time zone: the visitor day's default date is the device's today, and a
// visitor day is a right on the operator's local date.
const TIMEZONE = 'America/Chicago';
test.use({ reducedMotion: 'reduce', timezoneId: TIMEZONE });

// A 1×1 PNG (the officer's photo) and a one-page PDF (the proof of address): checked by content.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

async function phone(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ reducedMotion: 'reduce', timezoneId: TIMEZONE });
  return context.newPage();
}

async function desktop(browser: Browser): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width: 1280, height: 900 },
    reducedMotion: 'reduce',
    timezoneId: TIMEZONE,
  });
  return context.newPage();
}

/**
 * The axe scan once the toasts are gone: sonner stacks a second toast behind the first at reduced
 * opacity, which axe measures as low contrast; the screen itself is what is scanned.
 */
async function scanned(page: Page) {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  await noSeriousFindings(page);
}

/**
 * A zone of the operator's, paid at every hour, made by its owner through the API. Its maximum stay
 * is under two hours: other specs' payableZone (parking-fixtures.ts) passes it by, so no one else's
 * running session adds a right to this zone while an officer downloads it.
 */
async function newZone(
  request: APIRequestContext,
  owner: Record<string, string>,
  operatorId: number,
  number: string,
  name: string,
): Promise<number> {
  const res = await request.post(`/api/Operator/${operatorId}/Zones`, {
    headers: owner,
    data: {
      ZoneNumber: number,
      Name: name,
      Address: '1 Permit St',
      Latitude: 30.2672,
      Longitude: -97.7431,
      Capacity: 10,
      RatePerHour: 3,
      MaxStayMinutes: 90,
      PaidDays: [1, 2, 3, 4, 5, 6, 7],
      PaidFrom: '00:00',
      PaidUntil: '24:00',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { ZoneId: number }).ZoneId;
}

/** The wallet's balance as /account shows it. */
async function shownBalance(page: Page) {
  await page.goto('/account');
  return page.getByTestId('balance');
}

test('resident permit with a proof, approved; a visitor day; the officer checks both, cites and chalks offline and syncs; a contest cancelled and refunded; a citation paid; logout warns about an unsent citation and chalk and clears the device', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  const stamp = Date.now().toString(36).slice(-6).toUpperCase();
  const { owner, operatorId } = await demoOwner(request);
  const number = `PC${stamp}`;
  const zoneName = `Permits ${stamp}`;
  const zoneId = await newZone(request, owner, operatorId, number, zoneName);

  const manager = await joinedStaff(request, operatorId, owner, 'manager');
  const managerHeaders = authHeaders(manager.token);
  const officer = await joinedStaff(request, operatorId, owner, 'officer');
  const code = `NP${stamp}`;
  const violation = await request.post(`/api/Operator/${operatorId}/Violations`, {
    headers: managerHeaders,
    data: { Code: code, Description: 'No payment', Fine: '25.00', DueDays: 14, LateFee: '10.00' },
  });
  expect(violation.status(), await violation.text()).toBe(201);
  const typeName = `Residents ${stamp}`;
  const type = await request.post(`/api/Operator/${operatorId}/PermitTypes`, {
    headers: managerHeaders,
    data: {
      Kind: 'resident',
      Name: typeName,
      ZoneIds: [zoneId],
      ValidMonths: 12,
      PriceCents: 0,
      ProofRequired: true,
      MaxPlates: 1,
      VisitorDaysPerMonth: 2,
    },
  });
  expect(type.status(), await type.text()).toBe(201);

  // 1. The resident applies at /permits: the zone by its number, the type, the plate prefilled
  // with their vehicle's, a PDF proof.
  await driver(page, request, { plates: [`RS${stamp}`] });
  const residentPlate = `RS${stamp}`;
  await page.goto('/permits');
  await expect(page.getByRole('heading', { name: 'Permits', level: 1 })).toBeVisible();
  await expect(page.getByText('No permits yet')).toBeVisible();
  await page.getByRole('button', { name: 'Apply for a permit' }).click();
  await page.getByLabel('Zone number').fill(number);
  await page.getByRole('button', { name: 'Find the permits of this zone' }).click();
  await page.getByRole('radio', { name: new RegExp(typeName) }).check();
  await expect(page.getByLabel('Plates, separated by commas')).toHaveValue(residentPlate);
  await page.getByRole('button', { name: 'Send the application' }).click();
  await expect(page.getByText('Attach a proof of address (PDF, PNG or JPEG)')).toBeVisible();
  await page
    .getByLabel('Proof of address (PDF, PNG or JPEG)')
    .setInputFiles({ name: 'lease.pdf', mimeType: 'application/pdf', buffer: PDF });
  await page.getByRole('button', { name: 'Send the application' }).click();
  await expect(page.getByText('Your application was sent')).toBeVisible();
  const permitCard = page.getByTestId('permits').getByRole('listitem').filter({ hasText: typeName });
  await expect(permitCard).toContainText('Pending: waiting for a decision');
  await expect(permitCard).toContainText(residentPlate);

  // 2. The manager approves it in the console (a free permit is active at once).
  const desk = await desktop(browser);
  await signIn(desk, manager.member.UserName, manager.member.Password);
  await desk.goto(`/operator/${operatorId}/permits`);
  const application = desk.getByTestId('permit-applications').getByRole('listitem').filter({ hasText: residentPlate });
  await expect(application).toContainText(typeName);
  await expect(application.getByRole('button', { name: /Proof of application/ })).toBeVisible();
  await application.getByRole('button', { name: 'Approve' }).click();
  await expect(desk.getByText('Application approved')).toBeVisible();
  await expect(application).toBeHidden();

  // 3. The resident's permit is active; they give today to a visitor's plate.
  const visitorPlate = `VS${stamp}`;
  await page.reload();
  await expect(permitCard).toContainText('Active');
  await expect(permitCard).toContainText('2 visitor days left this month');
  await permitCard.getByLabel('Visitor’s plate').fill(visitorPlate);
  await permitCard.getByRole('button', { name: 'Give a visitor day' }).click();
  await expect(page.getByText('Visitor day given')).toBeVisible();
  await expect(permitCard.getByRole('list', { name: 'Visitor days given this month' })).toContainText(visitorPlate);
  await expect(permitCard).toContainText('1 visitor day left this month');
  await scanned(page);

  // The two drivers the officer will cite, each with money in the wallet.
  const contester = await phone(browser);
  const contesterPlate = `CT${stamp}`;
  const c = await driver(contester, request, { plates: [contesterPlate], fund: 50 });
  const payer = await phone(browser);
  const payerPlate = `PY${stamp}`;
  const p = await driver(payer, request, { plates: [payerPlate], fund: 50 });

  // 4. The officer downloads the zone's rights and checks both plates: online, the server answers
  // each plate (GET …/Check), and the download is not read again at each check (issue 30).
  const enforcement = await phone(browser);
  await signIn(enforcement, officer.member.UserName, officer.member.Password);
  await enforcement.goto('/enforcement');
  await expect(enforcement.getByRole('heading', { name: 'Enforcement', level: 1 })).toBeVisible();
  await enforcement.getByLabel('Zone number or name').fill(number);
  await enforcement.getByRole('checkbox', { name: `Zone ${number} · ${zoneName}` }).check();
  await enforcement.getByRole('button', { name: 'Download for offline use' }).click();
  await expect(enforcement.getByText(/^Downloaded at .*: 2 rights$/)).toBeVisible();
  const asked: string[] = [];
  enforcement.on('request', (r) => {
    const path = new URL(r.url()).pathname;
    if (/\/api\/Operator\/\d+\/(Check|Rights)$/.test(path)) asked.push(path.split('/').pop()!);
  });
  const answer = enforcement.getByRole('status').filter({ hasText: /PAID until|NO RIGHT TO PARK FOUND/ });
  const check = async (plate: string) => {
    await enforcement.getByLabel('Plate', { exact: true }).fill(plate);
    await enforcement.getByLabel('State', { exact: true }).fill('TX');
    await enforcement.getByRole('button', { name: 'Check plate' }).click();
  };
  await check(residentPlate);
  await expect(answer).toContainText('PAID until');
  await expect(answer).toContainText('A permit');
  await expect(answer).toContainText('Online answer: rights read just now');
  await check(visitorPlate);
  await expect(answer).toContainText('A visitor day');
  expect(asked).toEqual(['Check', 'Check']);
  await scanned(enforcement);

  // 5. Offline: the unpaid plates are answered from the download and cited into the queue.
  await enforcement.context().setOffline(true);
  await expect(enforcement.getByText('Offline: checks use the downloaded rights')).toBeVisible();
  const queue = enforcement.getByRole('region', { name: 'Citations to send' }).getByRole('listitem');
  for (const plate of [contesterPlate, payerPlate]) {
    await check(plate);
    await expect(answer).toContainText('NO RIGHT TO PARK FOUND');
    await expect(answer).toContainText(/Offline answer: rights downloaded \d+ minutes? ago/);
    await enforcement.getByLabel('Violation').selectOption({ label: `${code} · No payment` });
    await enforcement.getByLabel('Photo').setInputFiles({ name: `${plate}.png`, mimeType: 'image/png', buffer: PNG });
    await enforcement.getByRole('button', { name: 'Issue citation' }).click();
    await expect(queue.filter({ hasText: plate })).toContainText('Waiting for a connection');
  }
  await expect(queue).toHaveCount(2);

  // 5b. Offline chalking: the sighting is kept on the device with its own time and the offline
  // check answers it as not sent yet.
  const chalkedPlate = `CK${stamp}`;
  const chalks = enforcement.getByRole('region', { name: 'Chalks to send' }).getByRole('listitem');
  const chalked = enforcement.getByRole('status').filter({ hasText: /^Chalked at/ });
  await check(chalkedPlate);
  await enforcement.getByRole('button', { name: 'Chalk this plate' }).click();
  await expect(chalked).toHaveText(/^Chalked at \d\d:\d\d( [AP]M)?: 0 of \d+ minutes.* · Not sent yet$/);
  await expect(chalks.filter({ hasText: chalkedPlate })).toContainText('Waiting for a connection');
  await check(chalkedPlate);
  await expect(answer).toContainText('NO RIGHT TO PARK FOUND');
  await expect(answer).toContainText(/Chalked at .*: 0 of \d+ minutes.* · Not sent yet/);

  // 6. Back online: both citations and the chalk are sent by themselves.
  await enforcement.context().setOffline(false);
  await expect(enforcement.getByText('Online', { exact: true })).toBeVisible();
  const sent = async (plate: string) => {
    const row = queue.filter({ hasText: plate });
    await expect(row).toContainText(/Sent: citation \d+/);
    return Number(/Sent: citation (\d+)/.exec((await row.textContent()) ?? '')![1]);
  };
  const contested = await sent(contesterPlate);
  const paid = await sent(payerPlate);
  await expect(chalks.filter({ hasText: chalkedPlate })).toContainText(/Sent: chalk \d+/);
  // Online, the server answers the check and the plate's chalk: sent, no longer "Not sent yet".
  await check(chalkedPlate);
  await expect(answer).toContainText('Online answer: rights read just now');
  await expect(answer).toContainText(/Chalked at .*: 0 of \d+ minutes/);
  await expect(answer).not.toContainText('Not sent yet');

  // 7. The first driver sees the citation with the photo, pays it, then contests it.
  await contester.goto('/citations');
  await expect(contester.getByRole('heading', { name: 'Citations', level: 1 })).toBeVisible();
  const cited = contester
    .getByTestId('citations')
    .getByRole('listitem')
    .filter({ hasText: `Citation ${contested}` });
  await expect(cited).toContainText('No payment');
  await expect(cited).toContainText(`${contesterPlate} TX · Zone ${number}`);
  await expect(cited).toContainText('To pay');
  await expect(cited.getByText('Evidence')).toBeVisible();
  await cited.getByRole('button', { name: `Pay ${money(25)} from the wallet` }).click();
  await expect(cited).toContainText('Paid');
  await expect(cited.getByRole('button', { name: /^Pay / })).toBeHidden();
  expect(await balance(request, c.headers)).toBe(25);
  await cited.getByRole('button', { name: 'Contest' }).click();
  await cited.getByLabel('Why do you contest this citation?').fill('My permit application was pending.');
  await cited.getByRole('button', { name: 'Send the contest' }).click();
  await expect(contester.getByText('Your contest was sent')).toBeVisible();
  await expect(cited).toContainText('Contested: waiting for a decision');
  await expect(cited).toContainText('Your contest: My permit application was pending.');
  await scanned(contester);

  // 8. The manager cancels it in the desk: the fine goes back to the driver's wallet.
  await desk.getByRole('link', { name: 'Citations' }).click();
  const row = desk
    .getByTestId('operator-citations')
    .getByRole('listitem')
    .filter({ hasText: `Citation ${contested}` });
  await expect(row).toContainText('Contest: My permit application was pending.');
  await row.getByRole('button', { name: 'Cancel and refund' }).click();
  await expect(desk.getByText('Decision saved')).toBeVisible();
  await expect(row).toBeHidden();

  await contester.reload();
  await expect(cited).toContainText('Cancelled');
  await expect(cited).toContainText(`Refunded${money(25)}`);
  await expect(await shownBalance(contester)).toHaveText(money(50));

  // 9. The other driver pays theirs in the app.
  await payer.goto('/citations');
  const theirs = payer
    .getByTestId('citations')
    .getByRole('listitem')
    .filter({ hasText: `Citation ${paid}` });
  await expect(theirs).toContainText('To pay');
  await theirs.getByRole('button', { name: `Pay ${money(25)} from the wallet` }).click();
  await expect(theirs).toContainText('Paid');
  await expect(await shownBalance(payer)).toHaveText(money(25));
  expect(await balance(request, p.headers)).toBe(25);

  // 10. A citation that cannot be sent (the server is down for its photo) stays on the device; logout
  // warns about it, and then takes the queue and the download with it.
  await enforcement.route('**/Citations/Photos', (route) => route.fulfill({ status: 503, body: '' }));
  await check(`NS${stamp}`);
  await enforcement.getByLabel('Violation').selectOption({ label: `${code} · No payment` });
  await enforcement.getByLabel('Photo').setInputFiles({ name: 'unsent.png', mimeType: 'image/png', buffer: PNG });
  await enforcement.getByRole('button', { name: 'Issue citation' }).click();
  await expect(queue.filter({ hasText: `NS${stamp}` })).toContainText('Waiting for a connection');
  await enforcement.route('**/Chalks', (route) => route.fulfill({ status: 503, body: '' }));
  await enforcement.getByRole('button', { name: 'Chalk this plate' }).click();
  await expect(chalks.filter({ hasText: `NS${stamp}` })).toContainText('Waiting for a connection');
  await enforcement.goto('/profile');
  await enforcement.getByRole('button', { name: 'Logout' }).click();
  const leaving = enforcement.getByRole('dialog', { name: 'Logout?' });
  await expect(leaving.getByRole('alert')).toHaveText(
    '1 citation written on this device is not sent yet: logging out deletes it. ' +
      '1 chalk recorded on this device is not sent yet: logging out deletes it. Send them first',
  );
  await expect(leaving.getByRole('link', { name: 'Send them first' })).toHaveAttribute('href', '/enforcement');
  await leaving.getByRole('button', { name: 'Yes, Logout' }).click();
  await expect(enforcement).toHaveURL(/\/parkit$/);
  await signIn(enforcement, officer.member.UserName, officer.member.Password);
  await enforcement.goto('/enforcement');
  await expect(enforcement.getByText('No citations written on this device.')).toBeVisible();
  await expect(enforcement.getByRole('region', { name: 'Chalks to send' })).toHaveCount(0);
  await expect(enforcement.getByText(/^Downloaded at /)).toHaveCount(0);
});

test('an officer signing in after another one did not log out gets none of the other’s download or unsent chalks; the same officer keeps them', async ({
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  const stamp = Date.now().toString(36).slice(-6).toUpperCase();
  const { owner, operatorId } = await demoOwner(request);
  const number = `HO${stamp}`;
  await newZone(request, owner, operatorId, number, `Handover ${stamp}`);
  const first = await joinedStaff(request, operatorId, owner, 'officer');
  const second = await joinedStaff(request, operatorId, owner, 'officer');

  const device = await phone(browser);
  await signIn(device, first.member.UserName, first.member.Password);
  await device.goto('/enforcement');
  await device.getByLabel('Zone number or name').fill(number);
  await device.getByRole('checkbox', { name: `Zone ${number} · Handover ${stamp}` }).check();
  await device.getByRole('button', { name: 'Download for offline use' }).click();
  await expect(device.getByText(/^Downloaded at /)).toBeVisible();
  // A chalk the server cannot take now: it waits on the device.
  await device.route('**/Chalks', (route) => route.fulfill({ status: 503, body: '' }));
  await device.getByLabel('Plate', { exact: true }).fill(`HO${stamp}1`);
  await device.getByLabel('State', { exact: true }).fill('TX');
  await device.getByRole('button', { name: 'Check plate' }).click();
  await device.getByRole('button', { name: 'Chalk this plate' }).click();
  const chalks = device.getByRole('region', { name: 'Chalks to send' }).getByRole('listitem');
  await expect(chalks.filter({ hasText: `HO${stamp}1` })).toContainText('Waiting for a connection');

  // The session ends without a logout (the token gone, as when it expires); the same officer signs
  // in again and finds the device as it was.
  const endSession = () => device.evaluate(() => localStorage.clear());
  await endSession();
  await signIn(device, first.member.UserName, first.member.Password);
  await device.goto('/enforcement');
  await expect(chalks.filter({ hasText: `HO${stamp}1` })).toContainText('Waiting for a connection');
  await expect(device.getByText(/^Downloaded at /)).toBeVisible();

  // Another officer: nothing of the first one's is left.
  await endSession();
  await signIn(device, second.member.UserName, second.member.Password);
  await device.goto('/enforcement');
  await expect(device.getByRole('heading', { name: 'Enforcement', level: 1 })).toBeVisible();
  await expect(device.getByRole('region', { name: 'Chalks to send' })).toHaveCount(0);
  await expect(device.getByText(/^Downloaded at /)).toHaveCount(0);
  await expect(device.getByText('No citations written on this device.')).toBeVisible();
});

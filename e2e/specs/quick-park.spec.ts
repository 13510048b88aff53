import { type APIRequestContext, type Page } from '@playwright/test';
import { apiSignIn, authHeaders, continueAsGuest, expect, newMemberData, readCode, test } from '../fixtures.ts';
import { payableZone, type Zone } from '../parking-fixtures.ts';

/**
 * Quick Park as a new guest meets it: the price names the zone, the code step can send a new code,
 * the test wallet pays the Start and, the session keeping no card, its Extend too, a double tap on Pay pays once (and Pay again after a lost answer gets the first Pay's session),
 * and a live session survives a reload and a closed tab.
 */

async function chargingZone(request: APIRequestContext): Promise<Zone & { Name: string }> {
  const demo = authHeaders(await apiSignIn(request, 'demo', 'parkit-demo'));
  const vehicle = (
    (await (await request.get('/api/Vehicle/List', { headers: demo })).json()) as { VehicleID: number }[]
  )[0]!.VehicleID;
  return (await payableZone(request, demo, vehicle)) as Zone & { Name: string };
}

/** The phone verified, the zone and plate typed, the price shown. */
async function toPrice(page: Page, request: APIRequestContext, zone: Zone) {
  const member = newMemberData();
  await continueAsGuest(page);
  await page.goto('/QuickParkRegister');
  await page.getByLabel('Mobile Number').fill(member.PhoneNumber);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByLabel('Verification code').fill(await readCode(request, member.PhoneNumber));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByLabel('Zone number').fill(zone.ZoneNumber);
  await page.getByLabel('Enter Vehicle Plate #').fill(`QP${member.PhoneNumber.slice(-5)}`);
  await page.getByLabel('State').selectOption('TX');
  await page.getByRole('button', { name: 'See the price' }).click();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Month').fill('12');
  await page.getByLabel('Year').fill('2099');
  await page.getByLabel('CVC').fill('123');
  return member;
}

test('the price names the zone: its number, name and address', async ({ page, request }) => {
  const zone = await chargingZone(request);
  await toPrice(page, request, zone);
  const named = page.getByRole('region', { name: 'Zone' });
  await expect(named).toContainText(zone.ZoneNumber);
  await expect(named).toContainText(zone.Name);
  await expect(named).toContainText(zone.Address);
});

test('the code step offers a new code after 30 s, with the same limits as sign-in', async ({ page, request }) => {
  await page.clock.install();
  const member = newMemberData();
  await continueAsGuest(page);
  await page.goto('/QuickParkRegister');
  await page.getByLabel('Mobile Number').fill(member.PhoneNumber);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page.getByRole('button', { name: /^Resend code in \d+ s$/ })).toBeDisabled();
  // The page's 30 s pass; the server's have not: it refuses, says why and when.
  await page.clock.fastForward('00:31');
  await page.getByRole('button', { name: 'Resend code', exact: true }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Please wait before asking for another code' })).toBeVisible();
  await expect(page.getByRole('button', { name: /^Resend code in \d+ s$/ })).toBeDisabled();
  // The first code still verifies.
  await page.getByLabel('Verification code').fill(await readCode(request, member.PhoneNumber));
  await page.getByRole('button', { name: 'Verify' }).click();
  await expect(page.getByLabel('Zone number')).toBeVisible();
});

test('the test wallet pays Quick Park with no card typed: the session opens', async ({ page, request }) => {
  const zone = await chargingZone(request);
  await toPrice(page, request, zone);
  // The card fields stay as typed: the wallet's one-time card pays, not them.
  await page.getByLabel('Card number').fill('');
  await page.getByRole('button', { name: 'Pay with test wallet' }).click();
  await expect(page.getByTestId('countdown')).toHaveText(/^(1:00:00|59:\d\d)$/);
  await expect(page.getByText('This price has expired')).toHaveCount(0);
});

test('a session the test wallet paid keeps no card: its Extend is paid with the test wallet again, and the new end shows', async ({
  page,
  request,
}) => {
  const zone = await chargingZone(request);
  await toPrice(page, request, zone);
  await page.getByRole('button', { name: 'Pay with test wallet' }).click();
  await expect(page.getByTestId('countdown')).toHaveText(/^(1:00:00|59:\d\d)$/);
  const endsAt = page.getByText(/^Ends at /);
  const before = await endsAt.textContent();
  await page.getByRole('button', { name: 'Extend' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toContainText('Pay the extension with Apple Pay or Google Pay');
  // No card is kept to pay with: only the wallet pays.
  await expect(dialog.getByRole('button', { name: /^Pay \$/ })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Pay with test wallet' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByTestId('countdown')).toHaveText(/^1:(30:00|29:\d\d)$/);
  await expect(endsAt).not.toHaveText(before ?? '');
});

test('a double tap on Pay pays once and opens the session', async ({ page, request }) => {
  const zone = await chargingZone(request);
  await toPrice(page, request, zone);
  // Two taps faster than the screen redraws: both land on the button before it shows it is busy.
  await page.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).evaluate((b: HTMLButtonElement) => {
    b.click();
    b.click();
  });
  await expect(page.getByTestId('countdown')).toHaveText(/^(1:00:00|59:\d\d)$/);
  await expect(page.getByText('This price has expired')).toHaveCount(0);
});

test('a Pay whose answer is lost is asked again with its key: the session the first Pay started opens, not "This price has expired"', async ({
  page,
  request,
}) => {
  const zone = await chargingZone(request);
  await toPrice(page, request, zone);
  // The first Pay reaches the server and pays; its answer is lost on the way back.
  const sentKeys: string[] = [];
  let paid: { SessionId?: number } | null = null;
  await page.route('**/api/Parking/Guest/Start', async (route) => {
    sentKeys.push(route.request().headers()['idempotency-key'] ?? '');
    if (paid) return route.continue();
    paid = (await (await route.fetch()).json()) as { SessionId?: number };
    return route.abort('connectionreset');
  });
  await page.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).click();
  await expect(page.getByTestId('countdown')).toHaveText(/^(1:00:00|59:\d\d)$/);
  await expect(page.getByText('This price has expired')).toHaveCount(0);
  expect(paid).not.toBeNull();
  expect(sentKeys).toHaveLength(2);
  expect(sentKeys[1]).toBe(sentKeys[0]);
});

test('a live guest session survives a reload and a closed tab; once stopped, the form is back', async ({
  page,
  request,
}) => {
  const zone = await chargingZone(request);
  const member = await toPrice(page, request, zone);
  await page.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).click();
  await expect(page.getByTestId('countdown')).toHaveText(/^(1:00:00|59:\d\d)$/);

  await page.reload();
  await expect(page.getByTestId('countdown')).toHaveText(/^(1:00:00|59:\d\d)$/);
  await expect(page.getByRole('button', { name: 'Extend' })).toBeEnabled();
  await expect(page.getByRole('button', { name: 'Stop' })).toBeEnabled();

  // The tab closed; a new one on the same device opens Quick Park again.
  const context = page.context();
  await page.close();
  const again = await context.newPage();
  await again.goto('/QuickParkRegister');
  await expect(again.getByTestId('countdown')).toHaveText(/^(1:00:00|59:\d\d)$/);
  await expect(again.getByText(`QP${member.PhoneNumber.slice(-5)}`)).toBeVisible();

  await again.getByRole('button', { name: 'Stop' }).click();
  await again.getByRole('dialog').getByRole('button', { name: 'Yes, stop' }).click();
  await expect(again.getByRole('link', { name: 'Register with this number to keep your sessions' })).toBeVisible();
  await again.reload();
  await expect(again.getByLabel('Mobile Number')).toBeVisible();
});

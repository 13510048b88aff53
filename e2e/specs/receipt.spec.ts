import { readFile } from 'node:fs/promises';
import { expect, test } from '../fixtures.ts';
import { memberWithOneSession } from '../history-fixtures.ts';
import { driver, money, payableZone, start, type Headers } from '../parking-fixtures.ts';
import type { APIRequestContext } from '@playwright/test';

/**
 * The receipt a driver keeps (/ClosingReceipt): what was paid, each extension, the refund of unused
 * time, the zone and its address, the start and end; one parked duration on every screen.
 */

async function extend(request: APIRequestContext, headers: Headers, sessionId: number, minutes: number) {
  const q = await request.post('/api/Parking/Quote', {
    headers,
    data: { SessionId: sessionId, DurationMinutes: minutes },
  });
  expect(q.ok(), await q.text()).toBeTruthy();
  const res = await request.post('/api/Parking/Extend', {
    headers: { ...headers, 'idempotency-key': `e2e-x-${Date.now()}-${Math.random()}` },
    data: { QuoteId: ((await q.json()) as { QuoteId: string }).QuoteId },
  });
  expect(res.ok(), await res.text()).toBeTruthy();
}

interface Tx {
  Kind: string;
  Amount: number;
}

test('the receipt shows the start, each extension, the refund, the zone and the times; Back goes home', async ({
  page,
  request,
}) => {
  const { headers, vehicles } = await driver(page, request, { fund: 30 });
  const zone = await payableZone(request, headers, vehicles[0]!);
  const s = await start(request, headers, zone.ZoneId, vehicles[0]!, 60);
  await extend(request, headers, s.SessionId, 30);

  // From home: the running session, Stop, the receipt.
  await page.goto('/homepage');
  await page.getByRole('link', { name: new RegExp(`^Zone ${zone.ZoneNumber}, `) }).click();
  await expect(page).toHaveURL(new RegExp(`/parkdetails\\?id=${s.SessionId}$`));
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, stop' }).click();
  await expect(page).toHaveURL(new RegExp(`/ClosingReceipt\\?id=${s.SessionId}$`));

  const tx = ((await (await request.get('/api/Wallet/Transactions', { headers })).json()) as { Items: Tx[] }).Items;
  const parking = tx.filter((i) => i.Kind === 'parking').map((i) => -i.Amount);
  const refund = tx.find((i) => i.Kind === 'refund')!.Amount;
  // Newest first: the extension, then the start.
  const [extension, first] = parking;
  const receipt = page.getByRole('article', { name: 'Session summary' });
  const row = (label: string) =>
    receipt
      .getByRole('term')
      .filter({ hasText: new RegExp(`^${label}$`) })
      .locator('xpath=following-sibling::dd[1]');
  await expect(row('Paid at the start \\(60 min\\)')).toHaveText(money(first!));
  const ext = receipt.getByRole('term').filter({ hasText: /^Extension \(\d{2}:\d{2} [AP]M\)$/ });
  await expect(ext).toHaveCount(1);
  await expect(ext.locator('xpath=following-sibling::dd[1]')).toHaveText(money(extension!));
  await expect(row('Refund of unused time')).toHaveText(`-${money(refund)}`);
  await expect(row('Amount Paid')).toHaveText(money(first! + extension! - refund));
  await expect(row('Zone')).toHaveText(zone.ZoneNumber);
  await expect(receipt).toContainText(zone.Address);
  await expect(row('Started')).toHaveText(/^\d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} [AP]M$/);
  await expect(row('Ended')).toHaveText(/^\d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} [AP]M$/);

  // Back returns where the driver came from (home), not to a new park.
  await expect(page.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/homepage');
  await page.getByRole('link', { name: 'Back' }).click();
  await expect(page).toHaveURL(/\/homepage$/);

  // In Hindi.
  await page.evaluate(() => localStorage.setItem('language', 'hi'));
  await page.goto(`/ClosingReceipt?id=${s.SessionId}`);
  await expect(page.getByText('बचे समय की वापसी')).toBeVisible();
  await expect(page.getByText(/^एक्सटेंशन \(/)).toBeVisible();
});

test('a short session shows one duration in the list, on the map, in the detail, the receipt and the CSV', async ({
  page,
  request,
  context,
}) => {
  const { sessionId } = await memberWithOneSession(page, request);
  const receipt = await (async () => {
    await page.goto(`/ClosingReceipt?id=${sessionId}`);
    return (await page
      .getByRole('term')
      .filter({ hasText: /^Duration \(Minutes\)$/ })
      .locator('xpath=following-sibling::dd[1]')
      .textContent())!;
  })();
  expect(receipt).toMatch(/^\d+$/);
  const shown = `${receipt} min`;

  await page.goto(`/ParkingSessionDetail?id=${sessionId}`);
  await expect(
    page
      .getByRole('term')
      .filter({ hasText: /^Duration \(Minutes\)$/ })
      .locator('xpath=following-sibling::dd[1]'),
  ).toHaveText(receipt);

  await page.goto('/pastpark');
  const card = page.getByRole('list', { name: 'Past Parking Sessions' }).getByRole('listitem').first();
  await expect(card.getByRole('definition').first()).toHaveText(shown);

  const csvDownload = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const lines = (await readFile((await (await csvDownload).path())!, 'utf8')).trimEnd().split('\r\n');
  const column = lines[0]!.split(',').indexOf('DurationMinutes');
  expect(lines[1]!.split(',')[column]).toBe(receipt);

  await context.grantPermissions([]);
  await page.goto('/mappage');
  const listed = page
    .getByRole('region', { name: /on the map$/ })
    .getByRole('listitem')
    .first();
  await expect(listed.getByRole('definition').first()).toHaveText(shown);
});

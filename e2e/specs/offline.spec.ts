import { expect, signInAsDemo, test } from '../fixtures.ts';
import { driver, payableZone, start } from '../parking-fixtures.ts';

/**
 * With no connection: every screen says so and what still works, a part that needs the server says
 * it waits for the connection (not a grey box forever), and it loads by itself once the connection
 * is back (docs/architecture.md#offline).
 */

const OFFLINE_NOTICE = 'This needs a connection. It loads by itself when you are back online.';

test('offline, Extend on /parkdetails says it waits for the connection, and prices once back', async ({
  page,
  request,
}) => {
  const { headers, vehicles } = await driver(page, request, { fund: 20 });
  const zone = await payableZone(request, headers, vehicles[0]!);
  const { SessionId } = await start(request, headers, zone.ZoneId, vehicles[0]!, 60);
  await page.goto(`/parkdetails?id=${SessionId}`);
  await expect(page.getByTestId('countdown')).toHaveText(/^(1:00:00|59:\d\d)$/);

  await page.context().setOffline(true);
  await expect(page.getByRole('status').filter({ hasText: "You're offline" })).toContainText(
    'Your active parking, its proof of payment and your receipts still open.',
  );
  await page.getByRole('button', { name: 'Extend' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(OFFLINE_NOTICE)).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Pay', exact: true })).toBeDisabled();

  // Back online: the price comes without a tap, and Pay names it.
  await page.context().setOffline(false);
  await expect(page.getByText("You're offline")).toBeHidden();
  const total = dialog.getByTestId('quote-total');
  await expect(total).toHaveText(/^\$\d+\.\d{2}$/);
  await expect(dialog.getByRole('button', { name: `Pay ${await total.textContent()}` })).toBeEnabled();
  await expect(dialog.getByText(OFFLINE_NOTICE)).toBeHidden();
});

test('offline, a search on /findparking says it waits, and finds the zone once back', async ({ page }) => {
  await signInAsDemo(page);
  await page.goto('/findparking');
  await expect(page.getByRole('heading', { name: 'Find Parking' })).toBeVisible();

  await page.context().setOffline(true);
  await expect(page.getByText("You're offline")).toBeVisible();
  await page.getByRole('searchbox', { name: 'Search by zone number or address' }).fill('1001');
  await expect(page.getByRole('heading', { name: 'Results for “1001”' })).toBeVisible();
  await expect(page.getByText(OFFLINE_NOTICE)).toBeVisible();

  await page.context().setOffline(false);
  const first = page.getByRole('list', { name: 'Zones' }).getByRole('listitem').first();
  await expect(first).toContainText('1001');
  await expect(page.getByText(OFFLINE_NOTICE)).toBeHidden();
});

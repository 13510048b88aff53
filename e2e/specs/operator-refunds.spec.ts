import { apiSignIn, authHeaders, expect, signIn, test } from '../fixtures.ts';
import { demoOwner, joinedStaff, noSeriousFindings } from '../operator-fixtures.ts';
import { driver, money, payableZone, start, stop } from '../parking-fixtures.ts';

/**
 * Refunds from the console and settlement (docs/product.md#the-operators-console) against the real
 * server: a driver parks and stops; a manager finds the session and refunds half of it with a
 * reason; the driver's wallet shows the refund; the day's statement covers the session's money to
 * the cent.
 */

test.use({ reducedMotion: 'reduce' });

test('a manager refunds half of a session; the driver sees it; the settlement reconciles', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(180_000);
  // The driver parks and stops (the unused minutes go back at once).
  const d = await driver(page, request, { fund: 20 });
  const zone = await payableZone(request, d.headers, d.vehicles[0]!);
  const { SessionId: id } = await start(request, d.headers, zone.ZoneId, d.vehicles[0]!, 60);
  await stop(request, d.headers, id);
  const receipt = async () =>
    (await (await request.get(`/api/Parking/Session/${id}`, { headers: d.headers })).json()) as {
      AmountPaid: number;
      RefundedAmount: number;
    };
  const paid = Math.round((await receipt()).AmountPaid * 100);
  expect(paid).toBeGreaterThan(1);
  const half = Math.floor(paid / 2);

  // A manager of the demo operator: invited by the owner, joined with the code.
  const { owner, operatorId } = await demoOwner(request);
  const { member } = await joinedStaff(request, operatorId, owner, 'manager');

  // The manager, on a desktop: Sessions, the session, the refund dialog.
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  const manager = await context.newPage();
  await signIn(manager, member.UserName, member.Password);
  await expect(manager).toHaveURL(/\/operator\/\d+\/dashboard$/);
  await manager.getByRole('link', { name: 'Sessions' }).click();
  await expect(manager.getByRole('heading', { name: 'Sessions', level: 1 })).toBeVisible();
  const row = manager.getByTestId('operator-sessions').getByRole('button', { name: new RegExp(`Session ${id} `) });
  await expect(row).toBeVisible();
  await noSeriousFindings(manager);
  await row.click();
  const detail = manager.getByTestId('operator-session');
  await expect(detail).toBeVisible();
  await manager.getByRole('button', { name: 'Refund', exact: true }).click();
  const dialog = manager.getByRole('dialog', { name: `Refund session ${id}` });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel(/^Amount/).fill((half / 100).toFixed(2));
  await dialog.getByLabel('Reason').fill('The meter was broken');
  await dialog.getByRole('button', { name: 'Refund', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(manager.getByText('The meter was broken')).toBeVisible();
  expect(Math.round((await receipt()).RefundedAmount * 100)).toBeGreaterThanOrEqual(half);

  // The driver's wallet shows it, and the receipt.
  await page.goto('/account');
  const refundRow = page.getByTestId('transactions').getByRole('listitem').first();
  await expect(refundRow).toContainText('Parking refund');
  await expect(refundRow).toContainText(`+${money(half / 100)}`);

  // Settlement: today's statement, issued from the console, covers the session's money to the cent.
  await manager.getByRole('link', { name: 'Settlement' }).click();
  await expect(manager.getByRole('heading', { name: 'Settlement', level: 1 })).toBeVisible();
  // The refund's toast first leaves (the checks are about the page).
  await expect(manager.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  await noSeriousFindings(manager);
  // Today in the operator's time zone (a statement's day is the operator's).
  const { Timezone } = (await (await request.get('/api/Parking/Operator', { headers: d.headers })).json()) as {
    Timezone: string;
  };
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: Timezone }).format(new Date());
  await manager.getByLabel('Day (YYYY-MM-DD)').fill(today);
  await manager.getByRole('button', { name: 'Issue statement' }).click();
  await expect(manager.getByTestId('statement')).toBeVisible();
  const statements = (await (
    await request.get(`/api/Operator/${operatorId}/Statements`, {
      headers: authHeaders(await apiSignIn(request, member.UserName, member.Password)),
    })
  ).json()) as { StatementId: number; Period: string }[];
  const all = await Promise.all(
    statements
      .filter((s) => s.Period === 'day')
      .map(
        async (s) =>
          (await (
            await request.get(`/api/Operator/${operatorId}/Statements/${s.StatementId}`, { headers: owner })
          ).json()) as { Lines: { SessionId: number; Amount: number }[] },
      ),
  );
  const lines = all.flatMap((s) => s.Lines).filter((l) => l.SessionId === id);
  const after = await receipt();
  // The session's lines (its payment, Stop's refund, the manager's refund) add up to what it kept.
  expect(Math.round(lines.reduce((a, l) => a + l.Amount, 0) * 100)).toBe(Math.round(after.AmountPaid * 100));
  expect(lines.length).toBeGreaterThanOrEqual(2);
  await context.close();
});

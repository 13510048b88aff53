import { expect, registerNewMember, stored, test } from '../fixtures.ts';

/**
 * Pay the way drivers pay: on the sandbox provider (offline) the test wallet button stands in for
 * Apple Pay and Google Pay, and pays through the same request as a saved card.
 */
test('Add Money with the test wallet: credited once, no card saved', async ({ page }) => {
  await registerNewMember(page);
  // A saved card, through the API as /stripepage saves one: Add Money needs one today.
  const token = await stored(page, 'access_token');
  const memberId = await stored(page, 'p_user_id');
  const headers = { authorization: `Bearer ${token}`, xapikey: String(memberId) };
  const tok = await page.request.post('/api/Sandbox/Tokens', {
    data: { Number: '5555555555554444', ExpMonth: 12, ExpYear: new Date().getFullYear() + 2, Cvc: '123' },
  });
  const saved = await page.request.post('/api/PaymentMethods/Add', {
    headers,
    data: { Token: ((await tok.json()) as { Token: string }).Token },
  });
  expect(saved.status()).toBe(201);

  await page.goto('/addmoney');
  const express = page.getByRole('button', { name: 'Pay with test wallet' });
  await expect(express).toBeVisible();
  // The amount is checked first: nothing is paid without one.
  await express.click();
  await expect(page.getByText('Amount is required')).toBeVisible();

  await page.getByLabel('Amount', { exact: true }).fill('15');
  await express.click();
  const dialog = page.getByRole('dialog', { name: 'Money Added' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId('balance')).toHaveText('$15.00');
  const row = page.getByTestId('transactions').getByRole('listitem').first();
  await expect(row).toContainText('+$15.00');
  // The wallet's card was for this payment only: the saved cards are as they were.
  const cards = await page.request.get('/api/PaymentMethods/List', { headers });
  expect(((await cards.json()) as { Last4: string }[]).map((c) => c.Last4)).toEqual(['4444']);
});

test('Deluxe with the test wallet: the first month paid in one tap, no card saved', async ({ page }) => {
  await registerNewMember(page);
  const token = await stored(page, 'access_token');
  const memberId = await stored(page, 'p_user_id');
  const headers = { authorization: `Bearer ${token}`, xapikey: String(memberId) };
  // A saved card: the renewals' card (the subscription screen asks for one).
  const tok = await page.request.post('/api/Sandbox/Tokens', {
    data: { Number: '4242424242424242', ExpMonth: 12, ExpYear: new Date().getFullYear() + 2, Cvc: '123' },
  });
  expect(
    (
      await page.request.post('/api/PaymentMethods/Add', { headers, data: { Token: (await tok.json()).Token } })
    ).status(),
  ).toBe(201);

  await page.goto('/subscription/payment');
  await expect(page.getByText('The first month only: Deluxe renews each month from your default card.')).toBeVisible();
  await page.getByRole('button', { name: 'Pay with test wallet' }).click();
  const dialog = page.getByRole('dialog', { name: 'Success!' });
  await expect(dialog).toContainText('subscribed to the Deluxe plan');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/homepage$/);
  await page.goto('/account');
  await expect(page.getByTestId('current-plan')).toHaveText('Deluxe');
  await expect(page.getByTestId('balance')).toHaveText('$0.00');
  const rows = page.getByTestId('transactions').getByRole('listitem');
  await expect(rows.first()).toContainText('Plan payment');
  await expect(rows.nth(1)).toContainText('+$4.99');
  // The wallet's card was for this payment only: the saved cards are as they were.
  const cards = await page.request.get('/api/PaymentMethods/List', { headers });
  expect(((await cards.json()) as { Last4: string }[]).map((c) => c.Last4)).toEqual(['4242']);
});

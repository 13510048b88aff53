import { randomUUID } from 'node:crypto';
import type { Page } from '@playwright/test';
import { continueAsGuest, expect, registerNewMember, stored, test } from '../fixtures.ts';

/** The wallet, cards and plans, end to end on the sandbox provider. */

async function addSandboxCard(page: Page, number = '4242 4242 4242 4242') {
  await page.goto('/account');
  await page.getByRole('link', { name: '+ Add Payment Type' }).click();
  await expect(page).toHaveURL(/\/stripepage\?from=%2Faccount$/);
  await expect(page.getByTestId('test-mode')).toHaveText('Test mode');
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId('card-block').filter({ hasText: `•••• ${number.slice(-4)}` })).toBeVisible();
}

async function addMoney(page: Page, amount: string) {
  await page.goto('/addmoney');
  await page.getByLabel('Amount', { exact: true }).fill(amount);
  await page.getByRole('button', { name: 'Add Money' }).click();
}

/** The member's own API call, as the app makes it (token from the spec's access_token key). */
async function memberPost(page: Page, path: string, body: unknown, headers: Record<string, string> = {}) {
  const token = await stored(page, 'access_token');
  return page.request.post(path, { data: body, headers: { authorization: `Bearer ${token}`, ...headers } });
}

test('a new member adds a sandbox card, adds 20.00 and sees it on /account', async ({ page }) => {
  await registerNewMember(page);
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await expect(page.getByTestId('balance')).toHaveText('$0.00');
  await expect(page.getByText('No payment card yet. Add one to add money and buy plans.')).toBeVisible();
  await expect(page.getByText('No transactions yet. Money you add and spend shows here.')).toBeVisible();
  await expect(page.getByText('Default Add Amount')).toBeVisible();
  await expect(page.getByText('Minimum Trigger Amount')).toBeVisible();

  await addSandboxCard(page);
  const card = page.getByTestId('card-block');
  await expect(card.getByText('Account Activated')).toBeVisible();
  await expect(card.getByText('Payment Card Added via Stripe')).toBeVisible();

  await page.getByRole('link', { name: 'ADD MONEY' }).click();
  await expect(page).toHaveURL(/\/addmoney$/);
  await page.getByRole('button', { name: '$20' }).click();
  await expect(page.getByLabel('Amount', { exact: true })).toHaveValue('20');
  await page.getByRole('button', { name: 'Add Money' }).click();
  const dialog = page.getByRole('dialog', { name: 'Money Added' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('successfully added')).toBeVisible();
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(page.getByTestId('balance')).toHaveText('$20.00');
  const row = page.getByTestId('transactions').getByRole('listitem').first();
  await expect(row).toContainText('Money added');
  await expect(row).toContainText('+$20.00');
  await expect(row).toContainText(/\d{2} [A-Z][a-z]{2} \d{4}, \d{2}:\d{2} [AP]M/);
});

test('a declined card is refused when it is added, with the reason, and is not saved', async ({ page }) => {
  await registerNewMember(page);
  await page.goto('/stripepage?from=%2Faccount');
  await page.getByLabel('Card number').fill('4000 0000 0000 0002');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page.getByText('Your card was declined.')).toBeVisible();
  await expect(page).toHaveURL(/\/stripepage/);
  await page.goto('/account');
  await expect(page.getByText('No payment card yet. Add one to add money and buy plans.')).toBeVisible();
});

test('Add Money checks the amount, and a declined card credits nothing and says why', async ({ page }) => {
  await registerNewMember(page);
  // Stripe's "decline after attaching" test card: saved, then refused when charged.
  await addSandboxCard(page, '4000 0000 0000 0341');
  await addMoney(page, '4.99');
  await expect(page.getByText('Enter an amount from 5.00 to 500.00')).toBeVisible();
  await page.getByLabel('Amount', { exact: true }).fill('10.005');
  await page.getByRole('button', { name: 'Add Money' }).click();
  await expect(page.getByText('Enter an amount with at most two decimals')).toBeVisible();
  await page.getByLabel('Amount', { exact: true }).fill('20');
  await page.getByRole('button', { name: 'Add Money' }).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Your card was declined.' })).toContainText(
    'Nothing was added to your wallet.',
  );
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await page.goto('/account');
  await expect(page.getByTestId('balance')).toHaveText('$0.00');
  await expect(page.getByText('No transactions yet. Money you add and spend shows here.')).toBeVisible();
});

test('double-clicking Add Money credits once', async ({ page }) => {
  await registerNewMember(page);
  await addSandboxCard(page);
  await page.goto('/addmoney');
  await page.getByLabel('Amount', { exact: true }).fill('15');
  await page.getByRole('button', { name: 'Add Money' }).dblclick();
  await page.getByRole('dialog', { name: 'Money Added' }).getByRole('button', { name: 'OK' }).click();
  await expect(page.getByTestId('balance')).toHaveText('$15.00');
  await expect(page.getByTestId('transactions').getByRole('listitem')).toHaveCount(1);
});

test('auto-reload tops up once when a debit crosses the trigger', async ({ page }) => {
  await registerNewMember(page);
  await addSandboxCard(page);
  await addMoney(page, '20');
  await page.getByRole('dialog', { name: 'Money Added' }).getByRole('button', { name: 'OK' }).click();
  await page.getByRole('button', { name: 'Change amounts' }).click();
  await page.getByLabel('Default Add Amount').fill('25');
  await page.getByLabel('Minimum Trigger Amount').fill('10');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByTestId('default-add-amount')).toHaveText('$25.00');
  await expect(page.getByTestId('min-trigger-amount')).toHaveText('$10.00');
  await page.getByRole('switch', { name: 'Auto-reload' }).click();
  await expect(page.getByRole('switch', { name: 'Auto-reload' })).toBeChecked();

  // A debit that leaves 5.00 (< 10.00), through the server's own ledger code; retried with the same key.
  const key = randomUUID();
  const debit = await memberPost(page, '/api/Dev/WalletDebit', { Amount: 15 }, { 'idempotency-key': key });
  expect(await debit.json()).toMatchObject({ Balance: 5, ReloadDue: true, Reload: 'reloaded' });
  const retry = await memberPost(page, '/api/Dev/WalletDebit', { Amount: 15 }, { 'idempotency-key': key });
  expect(retry.headers()['idempotent-replayed']).toBe('true');

  await page.reload();
  await expect(page.getByTestId('balance')).toHaveText('$30.00');
  const rows = page.getByTestId('transactions').getByRole('listitem');
  await expect(rows.filter({ hasText: 'Auto-reload' })).toHaveCount(1);
  await expect(rows.first()).toContainText('+$25.00');
});

test('subscribing to Deluxe shows Success!, goes home and shows the plan on /account', async ({ page }) => {
  await registerNewMember(page);
  await addSandboxCard(page);
  await page.goto('/subscription');
  await expect(page.getByRole('heading', { name: 'Basic' })).toBeVisible();
  await expect(page.getByText('Convenience fee of $0.35 per parking session')).toBeVisible();
  await expect(page.getByText('$4.99 a month')).toBeVisible();
  await expect(page.getByText('No convenience fee')).toBeVisible();
  await page.getByRole('link', { name: 'Subscribe to Deluxe' }).click();
  await expect(page).toHaveURL(/\/subscription\/payment$/);
  await expect(page.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/subscription');
  // The card picture is the button: its name says what it pays and with which card.
  await page.getByRole('button', { name: 'Pay $4.99 a month for Deluxe with Visa ending 4242' }).click();
  const dialog = page.getByRole('dialog', { name: 'Success!' });
  await expect(dialog).toContainText('subscribed to the Deluxe plan');
  await dialog.getByRole('button', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/homepage$/);
  await page.goto('/account');
  await expect(page.getByTestId('current-plan')).toHaveText('Deluxe');
  await expect(page.getByTestId('transactions').getByRole('listitem').first()).toContainText('Plan payment');
});

test('deleting a card asks first, then the card is gone', async ({ page }) => {
  await registerNewMember(page);
  await addSandboxCard(page);
  await page.getByRole('button', { name: 'Delete card ending 4242' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete card?' });
  await expect(dialog).toContainText('It is your default card: auto-reload will be switched off.');
  await dialog.getByRole('button', { name: 'Yes, Delete' }).click();
  await expect(page.getByText('No payment card yet. Add one to add money and buy plans.')).toBeVisible();
});

test('the wallet in Hindi', async ({ page }) => {
  await registerNewMember(page);
  await page.evaluate(() => localStorage.setItem('language', 'hi'));
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'खाता', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'पैसे जोड़ें' })).toBeVisible();
  await expect(page.getByText('डिफ़ॉल्ट जोड़ राशि')).toBeVisible();
  await expect(page.getByTestId('test-mode')).toHaveText('टेस्ट मोड');
});

test('a guest gets a sign-in prompt on the wallet screens, never Unauthorized', async ({ page }) => {
  await continueAsGuest(page);
  for (const path of ['/account', '/addmoney', '/stripepage', '/subscription']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Sign in to continue' })).toBeVisible();
    await expect(page.getByText('Unauthorized')).toHaveCount(0);
  }
});

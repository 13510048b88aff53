import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  apiSignIn,
  authHeaders,
  expect,
  newMemberData,
  readCode,
  registerViaApi,
  signIn,
  stored,
  test,
} from '../fixtures.ts';

/** Leaving cleanly (docs/data.md#leaving): download my data, then delete the account from Profile. */

test('a member downloads their data, then deletes the account: money back to the card, signed out for good', async ({
  page,
  request,
}) => {
  const member = await registerViaApi(request, newMemberData());
  const code = await readCode(request, member.PhoneNumber, { kind: 'registration' });
  const verify = await request.post('/token', { form: { grant_type: 'otp', phone: member.PhoneNumber, code } });
  expect(verify.status()).toBe(200);
  const token = await apiSignIn(request, member.UserName, member.Password);
  const headers = authHeaders(token);
  // A card and 20.00 in the wallet, through the sandbox as the app adds them.
  const tok = await request.post('/api/Sandbox/Tokens', {
    data: { Number: '4242424242424242', ExpMonth: 12, ExpYear: new Date().getFullYear() + 2, Cvc: '123' },
  });
  const card = await request.post('/api/PaymentMethods/Add', {
    headers,
    data: { Token: ((await tok.json()) as { Token: string }).Token },
  });
  expect(card.status()).toBe(201);
  const added = await request.post('/api/Wallet/AddMoney', {
    headers: { ...headers, 'idempotency-key': randomUUID() },
    data: { Amount: 20 },
  });
  expect(added.status()).toBe(200);

  await signIn(page, member.UserName, member.Password);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Your data' })).toBeVisible();

  // The download: one JSON file with the profile, the card (brand and last 4 only) and the ledger.
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download my data' }).click();
  const file = await downloading;
  expect(file.suggestedFilename()).toMatch(/^parkit-data-\d{4}-\d{2}-\d{2}\.json$/);
  const text = readFileSync(await file.path(), 'utf8');
  const data = JSON.parse(text) as {
    Profile: { UserName: string; PhoneNumber: string };
    Cards: { Brand: string; Last4: string }[];
    Ledger: { Kind: string; Amount: number }[];
  };
  expect(data.Profile.UserName).toBe(member.UserName);
  expect(data.Cards).toEqual([expect.objectContaining({ Brand: 'Visa', Last4: '4242' })]);
  expect(data.Ledger).toEqual([expect.objectContaining({ Kind: 'top-up', Amount: 20 })]);
  expect(text).not.toContain('tok_sandbox');

  // The confirmation: a wrong password is said under the field and deletes nothing.
  await page.getByRole('button', { name: 'Delete my account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Password', { exact: true }).fill('not-my-password');
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(dialog.getByText('This password is not correct.')).toBeVisible();
  await dialog.getByRole('button', { name: 'Keep my account' }).click();
  await expect(dialog).toHaveCount(0);
  expect((await request.get('/api/Account/Details', { headers })).status()).toBe(200);

  await page.getByRole('button', { name: 'Delete my account' }).click();
  await dialog.getByLabel('Password', { exact: true }).fill(member.Password);
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await expect(page).toHaveURL(/\/parkit$/);
  await expect(page.getByText('Your account has been deleted. $20.00 is on its way back to your card.')).toBeVisible();
  expect(await stored(page, 'access_token')).toBeNull();

  // Every token ends; the password signs in no more; the phone registers anew.
  expect((await request.get('/api/Account/Details', { headers })).status()).toBe(401);
  const again = await request.post('/token', {
    form: { grant_type: 'password', username: member.UserName, password: member.Password },
  });
  expect(again.status()).toBe(400);
  await registerViaApi(request, newMemberData({ PhoneNumber: member.PhoneNumber }));
});

import type { Page } from '@playwright/test';
import {
  apiSignIn,
  DEMO,
  enterCode,
  expect,
  lastOutboxId,
  newMemberData,
  readCode,
  registerNewMember,
  registerViaApi,
  signIn,
  signInAsDemo,
  stored,
  test,
} from '../fixtures.ts';

/** Sign-up and sign-in end to end (docs/product.md#sign-in). */

async function logoutFromProfile(page: Page) {
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, Logout' }).click();
  await expect(page).toHaveURL(/\/parkit$/);
}

test('a new driver registers, verifies the code, lands on /addvehicles, logs out and back in', async ({ page }) => {
  const m = newMemberData();
  await page.goto('/parkit');
  await page.getByRole('link', { name: 'Register' }).click();
  await expect(page).toHaveURL(/\/register$/);
  await page.getByLabel('First Name').fill(m.FirstName);
  await page.getByLabel('Last Name').fill(m.LastName);
  await page.getByLabel('Username').fill(m.UserName);
  await page.getByLabel('Email').fill(m.EmailAddress);
  await page.getByLabel('Mobile Number').pressSequentially(`(${m.PhoneNumber})x`); // letters refused
  await expect(page.getByLabel('Mobile Number')).toHaveValue(m.PhoneNumber);
  await page.getByLabel('Password', { exact: true }).fill(m.Password);
  await page.getByRole('button', { name: 'Register' }).click();

  await expect(page).toHaveURL(new RegExp(`/otp\\?phone=${m.PhoneNumber}&purpose=register$`));
  await expect(page.getByRole('heading', { name: 'Verify your mobile number' })).toBeVisible();
  await expect(page.getByRole('button', { name: /Resend code in \d+ s/ })).toBeDisabled();
  await enterCode(page, await readCode(page.request, m.PhoneNumber, { kind: 'registration' }));
  await expect(page).toHaveURL(/\/addvehicles$/);

  // The spec's keys with their meanings (docs/product.md#stored-data).
  expect(await stored(page, 'access_token')).toBeTruthy();
  expect(await stored(page, 'app_id')).toBeTruthy();
  expect(Number(await stored(page, 'p_user_id'))).toBeGreaterThan(0);
  expect(await stored(page, 'username')).toBe(m.UserName);
  expect(await stored(page, 'is_vehicle')).toBe('false');
  expect(Number(await stored(page, 'client_id'))).toBeGreaterThan(0);
  const userData = JSON.parse((await stored(page, 'user_data')) ?? '{}') as Record<string, unknown>;
  expect(userData).toMatchObject({
    FirstName: m.FirstName,
    EmailAddress: m.EmailAddress,
    PhoneNumber: m.PhoneNumber,
    MinBalance: '0',
  });

  await logoutFromProfile(page);
  expect(await page.evaluate(() => Object.keys(localStorage).filter((k) => k !== 'language'))).toEqual([]);

  // Back in with the password: still no vehicle, so /addvehicles again.
  await page.getByRole('link', { name: 'Login' }).click();
  await signIn(page, m.EmailAddress, m.Password);
  await expect(page).toHaveURL(/\/addvehicles$/);
});

test('register shows the schema messages and names a taken username, email and phone', async ({ page }) => {
  await page.goto('/register');
  await page.getByRole('button', { name: 'Register' }).click();
  for (const msg of [
    'First name is required',
    'Last name is required',
    'Username is Required',
    'Email is required',
    'PhoneNumber is Required',
    'Password is required',
  ]) {
    await expect(page.getByText(msg, { exact: true })).toBeVisible();
  }
  const taken = newMemberData({
    UserName: DEMO.username,
    EmailAddress: 'demo@parkit.example',
    PhoneNumber: DEMO.phone,
  });
  await page.getByLabel('First Name').fill(taken.FirstName);
  await page.getByLabel('Last Name').fill(taken.LastName);
  await page.getByLabel('Username').fill(taken.UserName);
  await page.getByLabel('Email').fill(taken.EmailAddress);
  await page.getByLabel('Mobile Number').fill(taken.PhoneNumber);
  await page.getByLabel('Password', { exact: true }).fill(taken.Password);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByText('This username is already taken')).toBeVisible();
  await expect(page.getByText('This email is already registered')).toBeVisible();
  await expect(page.getByText('This mobile number is already registered')).toBeVisible();
  await expect(page).toHaveURL(/\/register$/);
});

test('the demo member logs in with a password to /homepage; a wrong password is refused', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username or Email').fill(DEMO.username);
  await page.getByLabel('Password', { exact: true }).fill('not-the-password');
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page.getByText('Invalid username or password')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await signInAsDemo(page);
  await expect(page.getByRole('heading', { name: `Hello, ${DEMO.firstName}` })).toBeVisible();
  expect(await stored(page, 'is_vehicle')).toBe('true');
});

test('login with OTP: a code to the phone signs the member in', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Login with OTP' }).click();
  await expect(page.getByRole('heading', { name: 'Login with OTP' })).toBeVisible();
  const after = await lastOutboxId(page.request, DEMO.phone);
  await page.getByLabel('Mobile Number').fill(DEMO.phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page).toHaveURL(/\/otp\?phone=\d+&purpose=login$/);
  const code = await readCode(page.request, DEMO.phone, { afterId: after, kind: 'sign-in' });

  await enterCode(page, code === '000000' ? '111111' : '000000');
  await expect(page.getByText('The code is wrong or has expired')).toBeVisible();
  await enterCode(page, code);
  await expect(page).toHaveURL(/\/homepage$/);
  expect(await stored(page, 'access_token')).toBeTruthy();
});

test('forgot password: sign in with a code, choose a new password, log in with it', async ({ page }) => {
  const m = await registerViaApi(page.request);
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(
    page.getByText('sign in with a code sent to your mobile number, then choose a new password'),
  ).toBeVisible();
  await page.getByLabel('Mobile Number').fill(m.PhoneNumber);
  await page.getByRole('button', { name: 'Send code' }).click();
  // The code from registration is under 30 s old: it is the one to type.
  await expect(page).toHaveURL(/\/otp\?phone=\d+&purpose=forgot$/);
  await enterCode(page, await readCode(page.request, m.PhoneNumber, { kind: 'registration' }));

  await expect(page).toHaveURL(/\/resetpassword$/);
  await expect(page.getByLabel('Verification code')).toHaveCount(0);
  await page.getByLabel('New Password', { exact: true }).fill('brand-new-pass-1');
  await page.getByLabel('Confirm New Password').fill('brand-new-pass-1');
  await page.getByRole('button', { name: 'Save Password' }).click();
  await expect(page.getByText('Password changed')).toBeVisible();
  await expect(page).toHaveURL(/\/homepage$/);

  await logoutFromProfile(page);
  await signIn(page, m.UserName, 'brand-new-pass-1');
  await expect(page).toHaveURL(/\/addvehicles$/);
});

test('a signed-in member changes the password with a reset code from /forgot', async ({ page }) => {
  const m = await registerNewMember(page);
  await page.goto('/profile');
  await page.getByRole('link', { name: 'Change Password' }).click();
  await expect(page).toHaveURL(/\/forgot$/);
  const after = await lastOutboxId(page.request, m.PhoneNumber);
  await page.getByRole('button', { name: 'Send code' }).click();
  await expect(page).toHaveURL(/\/resetpassword$/);
  const code = await readCode(page.request, m.PhoneNumber, { afterId: after, kind: 'password reset' });
  await page.getByLabel('Verification code').fill(code);
  await page.getByLabel('New Password', { exact: true }).fill('another-pass-22');
  await page.getByLabel('Confirm New Password').fill('another-pass-2');
  await page.getByRole('button', { name: 'Save Password' }).click();
  await expect(page.getByText('Passwords do not match')).toBeVisible();
  await page.getByLabel('Confirm New Password').fill('another-pass-22');
  await page.getByRole('button', { name: 'Save Password' }).click();
  await expect(page).toHaveURL(/\/homepage$/);
  // Still signed in on this device with the fresh token, and the new password works.
  await page.goto('/dashboard');
  await expect(page.getByTestId('balance')).toHaveText('$0.00');
  await apiSignIn(page.request, m.UserName, 'another-pass-22');
});

test('a guest browses: home, then a profile that shows only Guest User', async ({ page }) => {
  await page.goto('/parkit');
  await page.getByRole('button', { name: 'Continue as guest' }).click();
  await expect(page).toHaveURL(/\/homepage$/);
  expect(await stored(page, 'is_guestUser')).toBe('true');
  await expect(page.getByRole('heading', { name: 'Hello, Guest' })).toBeVisible();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  await expect(page.getByText('Guest User', { exact: true })).toBeVisible();
});

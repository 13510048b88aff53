import type { Page } from '@playwright/test';
import { continueAsGuest, DEMO, expect, registerNewMember, signInAsDemo, stored, test } from '../fixtures.ts';

/** The profile screen ('Account'), Default Parking Options, the logout dialog, Hindi. */

const option = (page: Page, name: string) => page.getByRole('switch', { name, exact: true });

test('a member sees the card with EDIT, the options, My Vehicles, Support and Logout', async ({ page }) => {
  await signInAsDemo(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Profile' }).click();
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await expect(page.getByText('demo@parkit.example')).toBeVisible();
  await expect(page.getByText(DEMO.phone)).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Default Parking Options' })).toBeVisible();
  for (const name of ['Auto Start Parking Session', 'Auto Extend Parking Session', 'Max Payment Amount']) {
    await expect(option(page, name)).toBeVisible();
  }
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(page.getByText('Guest User')).toHaveCount(0);

  await page.getByRole('link', { name: 'EDIT' }).click();
  await expect(page).toHaveURL(/\/editprofile$/);
  await page.goto('/profile');
  await page.getByRole('link', { name: 'My Vehicles' }).click();
  await expect(page).toHaveURL(/\/myvehicles$/);
  await page.goto('/profile');
  await page.getByRole('link', { name: 'Support' }).click();
  await expect(page).toHaveURL(/\/supportpage$/);
});

test("a guest's profile shows Guest User and none of the member's items", async ({ page }) => {
  await continueAsGuest(page);
  await page.goto('/profile');
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await expect(page.getByText('Guest User', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'EDIT' })).toHaveCount(0);
  await expect(page.getByText('Default Parking Options')).toHaveCount(0);
  await expect(page.getByRole('switch')).toHaveCount(0);
  await expect(page.getByRole('main').getByRole('link', { name: 'My Vehicles' })).toHaveCount(0);
  await expect(page.getByRole('main').getByRole('link', { name: 'Support' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Logout' })).toHaveCount(0);
});

test('the logout dialog: NO keeps the member signed in, Yes, Logout signs out', async ({ page }) => {
  // A member of its own: logout ends every session of the member, and other specs use demo.
  await registerNewMember(page);
  await page.goto('/profile');
  await page.getByRole('button', { name: 'Logout' }).click();
  const dialog = page.getByRole('dialog', { name: 'Logout?' });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByText('Are you sure you want to logout?')).toBeVisible();
  await dialog.getByRole('button', { name: 'NO', exact: true }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page).toHaveURL(/\/profile$/);
  expect(await stored(page, 'access_token')).toBeTruthy();

  await page.getByRole('button', { name: 'Logout' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, Logout' }).click();
  await expect(page).toHaveURL(/\/parkit$/);
  expect(await stored(page, 'access_token')).toBeNull();
  expect(await stored(page, 'user_data')).toBeNull();
  // The refresh token was revoked: it cannot bring the session back.
  const refreshed = await page.request.post('/token', { form: { grant_type: 'refresh_token' } });
  expect(refreshed.status()).toBe(401);
  await page.goto('/profile');
  await expect(page).toHaveURL(/\/parkit$/);
});

test('each parking option is saved on its own and survives a reload', async ({ page }) => {
  await registerNewMember(page);
  await page.goto('/profile');
  const start = option(page, 'Auto Start Parking Session');
  const extend = option(page, 'Auto Extend Parking Session');
  const max = option(page, 'Max Payment Amount');
  const states = async () => [
    await start.getAttribute('aria-checked'),
    await extend.getAttribute('aria-checked'),
    await max.getAttribute('aria-checked'),
  ];
  const before = await states();

  const saved = (p: Page) =>
    p.waitForResponse(
      (r) => r.url().endsWith('/api/Account/ParkingOptions') && r.request().method() === 'POST' && r.ok(),
    );
  await Promise.all([saved(page), start.click()]);
  const flip = (v: string | null) => (v === 'true' ? 'false' : 'true');
  expect(await states()).toEqual([flip(before[0]!), before[1], before[2]]);

  await Promise.all([saved(page), extend.click()]);
  await page.reload();
  expect(await states()).toEqual([flip(before[0]!), flip(before[1]!), before[2]]);

  // Max Payment on: the amount can be set.
  if (before[2] !== 'true') await Promise.all([saved(page), max.click()]);
  const amount = page.getByLabel('Maximum per session');
  await amount.fill('0.50');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Enter an amount from 1.00 to 500.00')).toBeVisible();
  await amount.fill('42.50');
  await Promise.all([saved(page), page.getByRole('button', { name: 'Save', exact: true }).click()]);
  await page.reload();
  await expect(max).toHaveAttribute('aria-checked', 'true');
  await expect(page.getByLabel('Maximum per session')).toHaveValue('42.50');

  // Off again: the amount field goes, the other two stay as they were.
  await Promise.all([saved(page), max.click()]);
  await page.reload();
  await expect(page.getByLabel('Maximum per session')).toHaveCount(0);
  expect(await states()).toEqual([flip(before[0]!), flip(before[1]!), 'false']);
});

test('the profile in Hindi after switching the language', async ({ page }) => {
  await signInAsDemo(page);
  await page.goto('/profile');
  await page.getByText('हिन्दी').click();
  await expect(page.getByRole('heading', { name: 'खाता', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'डिफ़ॉल्ट पार्किंग विकल्प' })).toBeVisible();
  await page.getByRole('button', { name: 'लॉग आउट' }).click();
  await expect(page.getByRole('dialog', { name: 'लॉग आउट करें?' })).toBeVisible();
  await page.getByRole('button', { name: 'नहीं', exact: true }).click();
  // The choice is remembered across a reload.
  await page.reload();
  await expect(page.getByRole('heading', { name: 'खाता', level: 1 })).toBeVisible();
  await page.getByText('English').click();
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
});

import type { Page } from '@playwright/test';
import { expect, registerNewMember, test } from '../fixtures.ts';

/** Edit Profile against the real server (docs/product.md#screens, #states, #validation; docs/product.md#placeholders-made-real). */

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

test('a member edits the profile; it is saved and shown again after a reload', async ({ page }) => {
  const member = await registerNewMember(page);
  await page.goto('/editprofile');

  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit Profile');
  await expect(page.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/profile');
  // Read-only: Username (from the stored username), Email, Mobile Number.
  for (const [label, value] of [
    ['Username', member.UserName],
    ['Email', member.EmailAddress],
    ['Mobile Number', member.PhoneNumber],
  ] as const) {
    await expect(field(page, label)).toHaveValue(value);
    await expect(field(page, label)).toBeDisabled();
  }
  // No state saved yet: TX (docs/product.md#placeholders-made-real); the list comes from /api/Core/States.
  await expect(field(page, 'State')).toHaveValue('TX');
  await expect(field(page, 'State').locator('option').first()).toHaveText('Select State');
  await expect(field(page, 'State').locator('option', { hasText: 'WY' })).toHaveCount(1);

  // The spec's messages for the editable fields.
  await field(page, 'AddressLine 1').fill('');
  await field(page, 'City').fill('');
  await field(page, 'ZipCode').fill('');
  await field(page, 'State').selectOption('');
  await page.getByRole('button', { name: 'Ok' }).click();
  for (const message of ['AddressLine1 is Required', 'City is Required', 'State is Required', 'ZipCode is Required']) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }

  // ZipCode takes digit keys only.
  await field(page, 'ZipCode').pressSequentially('7a8-70b1');
  await expect(field(page, 'ZipCode')).toHaveValue('78701');

  await field(page, 'AddressLine 1').fill('500 E Cesar Chavez St');
  await field(page, 'City').fill('Austin');
  await field(page, 'State').selectOption('NM');
  await page.getByRole('button', { name: 'Ok' }).click();
  await expect(page.getByText('User Updated')).toBeVisible();
  await expect(page).toHaveURL(/\/profile$/);

  // After a reload the profile (rebuilt from the server) shows the member, and Edit Profile the
  // saved address and state.
  await page.reload();
  await expect(page.getByText(member.EmailAddress)).toBeVisible();
  await expect(page.getByText(member.PhoneNumber)).toBeVisible();
  await page.goto('/editprofile');
  await expect(field(page, 'AddressLine 1')).toHaveValue('500 E Cesar Chavez St');
  await expect(field(page, 'City')).toHaveValue('Austin');
  await expect(field(page, 'State')).toHaveValue('NM');
  await expect(field(page, 'ZipCode')).toHaveValue('78701');
});

test('Edit Profile in Hindi', async ({ page }) => {
  await registerNewMember(page);
  await page.evaluate(() => localStorage.setItem('language', 'hi'));
  await page.goto('/editprofile');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('प्रोफ़ाइल संपादित करें');
  await expect(field(page, 'उपयोगकर्ता नाम')).toBeDisabled();
  await field(page, 'शहर').fill('');
  await page.getByRole('button', { name: 'ठीक है' }).click();
  await expect(page.getByText('शहर आवश्यक है')).toBeVisible();
});

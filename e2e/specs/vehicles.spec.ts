import type { Page } from '@playwright/test';
import { apiSignIn, authHeaders, expect, registerNewMember, stored, test } from '../fixtures.ts';

/** My Vehicles and Add/Edit Vehicle against the real server (docs/product.md#screens, #states, #validation, #errors). */

const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

async function fillVehicle(
  page: Page,
  v: { make: string; model: string; plate: string; state: string; color: string; year: string },
) {
  const models = page.waitForResponse((r) => r.url().includes('/api/Vehicle/Models/') && r.ok());
  await field(page, 'Vehicle Make').selectOption(v.make);
  await models;
  await field(page, 'Vehicle Model').selectOption(v.model);
  await field(page, 'Vehicle Plate #').fill(v.plate);
  await field(page, 'State').selectOption(v.state);
  await field(page, 'Vehicle Color').selectOption(v.color);
  await field(page, 'Vehicle Year').selectOption(v.year);
}

const firstOption = (page: Page, label: string) => field(page, label).locator('option').first();

test('a new member adds a first vehicle, a second from My Vehicles, edits and deletes them', async ({ page }) => {
  await registerNewMember(page);

  // Add mode after sign-up: no back button (is_vehicle is not 'true').
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Add Vehicle');
  await expect(page.getByRole('link', { name: 'Back' })).toHaveCount(0);
  await expect(firstOption(page, 'Vehicle Make')).toHaveText('Select Vehicle Make');
  await expect(firstOption(page, 'Vehicle Model')).toHaveText('Select Vehicle Modal');
  await expect(field(page, 'Vehicle Plate #')).toHaveAttribute('placeholder', 'Enter Vehicle Plate #');
  await expect(firstOption(page, 'State')).toHaveText('Select State');
  await expect(firstOption(page, 'Vehicle Color')).toHaveText('Select Vehicle Color');
  await expect(firstOption(page, 'Vehicle Year')).toHaveText('Select Year');
  // The year picker: next year first, 1900 last, yyyy; list values uppercased.
  const nextYear = String(new Date().getFullYear() + 1);
  await expect(field(page, 'Vehicle Year').locator('option').nth(1)).toHaveText(nextYear);
  await expect(field(page, 'Vehicle Year').locator('option').last()).toHaveText('1900');
  await expect(field(page, 'Vehicle Make').locator('option', { hasText: 'TOYOTA' })).toHaveCount(1);
  await expect(field(page, 'Vehicle Color').locator('option', { hasText: 'SILVER' })).toHaveCount(1);

  // Every validation message of docs/product.md#validation, by submitting the empty form.
  await page.getByRole('button', { name: 'Save' }).click();
  for (const message of [
    'VehicleMake is Required',
    'Vehicle Model is Required',
    'Plate Number is Required',
    'State is Required',
    'Vehicle Color is Required',
    'Please Select Year',
  ]) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }

  await fillVehicle(page, {
    make: 'TOYOTA',
    model: 'CAMRY',
    plate: 'e2e 101',
    state: 'TX',
    color: 'SILVER',
    year: '2021',
  });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Vehicle Added Successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/homepage$/);
  expect(await stored(page, 'is_vehicle')).toBe('true');

  // My Vehicles: header, back to /profile, the numbered card with its four rows.
  await page.goto('/myvehicles');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('My Vehicles');
  await expect(page.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/profile');
  const first = page.getByRole('article', { name: 'Vehicle 1' });
  await expect(first.getByRole('heading')).toHaveText('Vehicle 1');
  for (const [label, value] of [
    ['Vehicle Make', 'TOYOTA'],
    ['Model', 'CAMRY'],
    ['Vehicle Plate #', 'E2E 101'],
    ['State', 'TX'],
  ] as const) {
    await expect(first.locator('dt', { hasText: label })).toHaveCount(1);
    await expect(first.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]')).toHaveText(value);
  }

  // A second vehicle from My Vehicles: the back button shows, Save returns to /myvehicles.
  await page.getByRole('link', { name: '+ Add Vehicle' }).click();
  await expect(page).toHaveURL(/\/addvehicles$/);
  await expect(page.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/myvehicles');
  // The server's refusal lands on its field: the same plate in the same state is a 409.
  await fillVehicle(page, {
    make: 'HONDA',
    model: 'CIVIC',
    plate: 'E2E 101',
    state: 'TX',
    color: 'BLACK',
    year: '2019',
  });
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(
    page.getByText('You already have a vehicle with this plate in this state', { exact: true }),
  ).toBeVisible();
  await expect(field(page, 'Vehicle Plate #')).toHaveAttribute('aria-invalid', 'true');
  await expect(page).toHaveURL(/\/addvehicles$/);
  await field(page, 'Vehicle Plate #').fill('E2E-202');
  await field(page, 'State').selectOption('CA');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Vehicle Added Successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/myvehicles$/);
  await expect(page.getByRole('article')).toHaveCount(2);
  const second = page.getByRole('article', { name: 'Vehicle 2' });
  await expect(second).toContainText('HONDA');

  // Edit it: prefilled from the list; a new make reloads the models and clears the model.
  await second.getByRole('link', { name: 'Edit vehicle 2' }).click();
  await expect(page).toHaveURL(/\/addvehicles\?id=\d+$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Edit Vehicle');
  await expect(field(page, 'Vehicle Make')).toHaveValue('HONDA');
  await expect(field(page, 'Vehicle Model')).toHaveValue('CIVIC');
  await expect(field(page, 'Vehicle Plate #')).toHaveValue('E2E-202');
  await expect(field(page, 'State')).toHaveValue('CA');
  await expect(field(page, 'Vehicle Color')).toHaveValue('BLACK');
  await expect(field(page, 'Vehicle Year')).toHaveValue('2019');
  const models = page.waitForResponse((r) => r.url().includes('/api/Vehicle/Models/') && r.ok());
  await field(page, 'Vehicle Make').selectOption('MAZDA');
  await models;
  await expect(field(page, 'Vehicle Model')).toHaveValue('');
  await expect(field(page, 'Vehicle Model').locator('option', { hasText: 'CIVIC' })).toHaveCount(0);
  await expect(field(page, 'Vehicle Model').getByRole('option', { name: 'CX-5', exact: true })).toHaveCount(1);
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Vehicle Model is Required', { exact: true })).toBeVisible();
  await field(page, 'Vehicle Model').selectOption('CX-5');
  await page.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Vehicle Edit Successfully')).toBeVisible();
  await expect(page).toHaveURL(/\/myvehicles$/);
  await expect(page.getByRole('article', { name: 'Vehicle 2' })).toContainText('MAZDA');
  await expect(page.getByRole('article', { name: 'Vehicle 2' })).toContainText('CX-5');

  // Delete both, each after a confirm; the last one sets is_vehicle back to 'false'.
  await page.getByRole('button', { name: 'Delete vehicle 2' }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete Vehicle?' });
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByRole('article')).toHaveCount(2);
  await page.getByRole('button', { name: 'Delete vehicle 2' }).click();
  await dialog.getByRole('button', { name: 'Yes, Delete' }).click();
  await expect(page.getByRole('article')).toHaveCount(1);
  await expect(page.getByRole('article', { name: 'Vehicle 1' })).toContainText('TOYOTA');
  await page.getByRole('button', { name: 'Delete vehicle 1' }).click();
  await dialog.getByRole('button', { name: 'Yes, Delete' }).click();
  await expect(page.getByText('You have not added a vehicle yet.')).toBeVisible();
  expect(await stored(page, 'is_vehicle')).toBe('false');
  await expect(page.getByRole('link', { name: '+ Add Vehicle' })).toBeVisible();

  // The list survives a reload as the server has it.
  await page.reload();
  await expect(page.getByText('You have not added a vehicle yet.')).toBeVisible();
});

test('My Vehicles and Add Vehicle in Hindi', async ({ page }) => {
  const member = await registerNewMember(page);
  const token = await apiSignIn(page.request, member.UserName, member.Password);
  const res = await page.request.post('/api/Vehicle/Add', {
    headers: authHeaders(token),
    data: {
      VehicleMake: 'Ford',
      VehicleModel: 'F-150',
      PlateNumber: 'HI 42',
      PlateState: 'TX',
      VehicleColor: 'Blue',
      VehicleYear: '2022',
    },
  });
  expect(res.status(), await res.text()).toBe(201);

  await page.evaluate(() => localStorage.setItem('language', 'hi'));
  await page.goto('/myvehicles');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('मेरे वाहन');
  await expect(page.getByRole('heading', { name: 'My Vehicles' })).toHaveCount(0);
  await expect(page.getByRole('article', { name: 'वाहन 1' })).toContainText('F-150');
  await page.getByRole('link', { name: '+ वाहन जोड़ें' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('वाहन जोड़ें');
  await page.getByRole('button', { name: 'सहेजें' }).click();
  await expect(page.getByText('वाहन निर्माता आवश्यक है')).toBeVisible();
  await expect(page.getByText('कृपया वर्ष चुनें')).toBeVisible();
});

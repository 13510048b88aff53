import type { Page } from '@playwright/test';
import { apiSignIn, authHeaders, continueAsGuest, DEMO, expect, signInAsDemo, test } from '../fixtures.ts';

/** The route table's rules and the bottom navigation (docs/product.md#screens). */

const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });
/** An entry of the bottom bar, enabled (a link) or inert (a button). */
const entry = (page: Page, name: string) =>
  nav(page).getByRole('link', { name }).or(nav(page).getByRole('button', { name }));

test('/ and unknown paths redirect to /parkit', async ({ page }) => {
  for (const path of ['/', '/no-such-page', '/homepage/extra']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/parkit$/);
  }
  await expect(page.getByRole('heading', { name: 'ParkIt' })).toBeVisible();
});

test('protected routes send a signed-out visitor to /parkit', async ({ page }) => {
  for (const path of ['/dashboard', '/myvehicles', '/profile', '/forgot', '/resetpassword', '/account']) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/parkit$/);
  }
});

test('the public home page offers a signed-out visitor the ways in', async ({ page }) => {
  await page.goto('/homepage');
  await expect(page.getByRole('heading', { name: 'Welcome to ParkIt' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Register' })).toBeVisible();
});

test('/login and /parkit send a signed-in member and a guest to /homepage', async ({ page, browser }) => {
  await signInAsDemo(page);
  for (const path of ['/login', '/parkit']) {
    await page.goto(path);
    await expect(page).toHaveURL(/\/homepage$/);
  }
  const guest = await browser.newPage();
  await continueAsGuest(guest);
  await guest.goto('/login');
  await expect(guest).toHaveURL(/\/homepage$/);
  await guest.close();
});

test('a member reaches all five tabs', async ({ page }) => {
  await signInAsDemo(page);
  const tabs: [string, RegExp][] = [
    ['Past Parkings', /\/pastpark$/],
    ['Account', /\/account$/],
    ['Find Parking', /\/findparking$/],
    ['Profile', /\/profile$/],
    ['Home', /\/homepage$/],
  ];
  for (const [name, url] of tabs) {
    await nav(page).getByRole('link', { name, exact: true }).click();
    await expect(page, name).toHaveURL(url);
  }
});

test('a guest: Past Parkings, Account and Find Parking (no client_id) do nothing; Home and Profile work', async ({
  page,
}) => {
  await continueAsGuest(page);
  for (const name of ['Past Parkings', 'Account', 'Find Parking']) {
    const item = entry(page, name);
    await expect(item).toHaveAttribute('aria-disabled', 'true');
    await item.click({ force: true }); // aria-disabled: Playwright would wait for it to be enabled
    await expect(page, name).toHaveURL(/\/homepage$/);
  }
  await entry(page, 'Profile').click();
  await expect(page).toHaveURL(/\/profile$/);
  await entry(page, 'Home').click();
  await expect(page).toHaveURL(/\/homepage$/);
});

test('client_id "0" keeps Find Parking inert; a valid one enables it, and it stays enabled', async ({ page }) => {
  await continueAsGuest(page);
  await page.evaluate(() => localStorage.setItem('client_id', '0'));
  await page.reload();
  await expect(entry(page, 'Find Parking')).toHaveAttribute('aria-disabled', 'true');
  await entry(page, 'Find Parking').click({ force: true });
  await expect(page).toHaveURL(/\/homepage$/);

  await page.evaluate(() => localStorage.clear()); // leave guest mode
  await signInAsDemo(page);
  expect(await page.evaluate(() => localStorage.getItem('client_id'))).not.toBe('0');
  await entry(page, 'Find Parking').click();
  await expect(page).toHaveURL(/\/findparking$/);
  // Seen valid once, it stays enabled even if client_id changes afterwards.
  await page.evaluate(() => localStorage.setItem('client_id', '0'));
  await entry(page, 'Home').click();
  await expect(page).toHaveURL(/\/homepage$/);
  await entry(page, 'Find Parking').click();
  await expect(page).toHaveURL(/\/findparking$/);
});

test('the dashboard shows the balance with $ and the vehicle count', async ({ page }) => {
  const token = await apiSignIn(page.request, DEMO.username, DEMO.password);
  const details = (await (await page.request.get('/api/Account/Details', { headers: authHeaders(token) })).json()) as {
    Balance: number;
    VehicleCount: number;
  };
  await signInAsDemo(page);
  await page.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('balance')).toHaveText(
    `$${details.Balance.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`,
  );
  await expect(page.getByTestId('vehicle-count')).toHaveText(String(details.VehicleCount));
});

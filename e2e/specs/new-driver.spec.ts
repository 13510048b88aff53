import type { Page } from '@playwright/test';
import { continueAsGuest, DEMO, expect, registerNewMember, signInAsDemo, test } from '../fixtures.ts';

/** What a new driver tripped on: the screens and words met in the first minutes. */

async function addCard(page: Page) {
  await page.goto('/stripepage?from=%2Faccount');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry (MM/YY)').fill('12/34');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: 'Save card' }).click();
  await expect(page).toHaveURL(/\/account$/);
}

test('the list/map switch of /pastpark shows a map or list icon with its label', async ({ page }) => {
  await signInAsDemo(page);
  await page.goto('/pastpark');
  const toMap = page.getByRole('link', { name: 'Show on map' });
  // A visible word beside the icon: a globe alone read as a language switch.
  await expect(toMap).toContainText('Map');
  await toMap.click();
  await expect(page).toHaveURL(/\/mappage/);
  await expect(page.getByRole('link', { name: 'Show as list' })).toContainText('List');
});

test("a guest's home leads somewhere: Park Now to Quick Park, and the tabs say why they wait", async ({ page }) => {
  await continueAsGuest(page);
  const nav = page.getByRole('navigation', { name: 'Main' });
  // Past Parkings and Account stay inert for a guest (the spec) but say why when pressed. They are
  // aria-disabled, which Playwright would wait on: a driver can press them all the same.
  const press = (name: string) => nav.getByRole('button', { name }).click({ force: true });
  await press('Past Parkings');
  const why = page.getByRole('status').filter({ hasText: 'Past Parkings needs an account.' });
  await expect(why).toBeVisible();
  await expect(why.getByRole('link', { name: 'Login' })).toBeVisible();
  await press('Account');
  await expect(page.getByRole('status').filter({ hasText: 'Your wallet and cards need an account.' })).toBeVisible();
  await press('Find Parking');
  const park = page.getByRole('status').filter({ hasText: 'Guests park with Quick Park' });
  await expect(park).toBeVisible();
  await park.getByRole('link', { name: 'Quick Park' }).click();
  await expect(page).toHaveURL(/\/QuickParkRegister$/);

  // Park Now, the biggest thing on the screen, is not greyed out: it opens Quick Park.
  await page.goto('/homepage');
  await page.getByRole('link', { name: 'Park Now' }).click();
  await expect(page).toHaveURL(/\/QuickParkRegister$/);
});

test('an ended sign-in says so, and signing in again returns to the screen', async ({ page, context }) => {
  await signInAsDemo(page);
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  // The sign-in ends on the server's side: the access token no longer counts, no refresh cookie.
  // Set as the page loads, before the app (which writes its own token back) runs.
  await context.clearCookies();
  await page.addInitScript(() => localStorage.setItem('access_token', 'ended'));
  await page.reload();
  // The screen says so where it stands (a screen whose reads do not redirect), or /login does.
  const prompt = page.getByRole('heading', { name: 'Your session has ended' });
  const notice = page.getByRole('status').filter({ hasText: 'Your session has ended.' });
  await expect(prompt.or(notice)).toBeVisible();
  if (await prompt.isVisible()) await page.getByRole('main').getByRole('link', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/login/);
  await expect(notice).toBeVisible();
  await page.getByLabel('Username or Email').fill(DEMO.username);
  await page.getByLabel('Password', { exact: true }).fill(DEMO.password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).toHaveURL(/\/account$/);
});

test('the words a new member meets: Money Added with its amount, an empty spend chart', async ({ page }) => {
  await registerNewMember(page);
  await page.goto('/account');
  // No bare 0-4 axis: an empty state instead.
  await expect(page.getByText('No spending in the last 6 months yet.')).toBeVisible();
  await expect(page.locator('.recharts-yAxis')).toHaveCount(0);

  await addCard(page);
  const card = page.getByTestId('card-block');
  await expect(card.getByText('Account Activated')).toBeVisible();
  await expect(card.getByText('Payment Card Added via Stripe')).toBeVisible();
  await expect(card).toContainText('•••• 4242');
  await expect(card).toContainText('12/34');

  await page.goto('/addmoney');
  await page.getByLabel('Amount', { exact: true }).fill('20');
  await page.getByRole('button', { name: 'Add Money' }).click();
  const dialog = page.getByRole('dialog', { name: 'Money Added' });
  await expect(dialog.getByText('successfully added')).toBeVisible();
  await expect(dialog).toContainText('$20.00 successfully added. New balance: $20.00');
});

test('the registration SMS says registration; Add Vehicle after sign-up can be skipped', async ({ page }) => {
  const member = await registerNewMember(page);
  const res = await page.request.get(`/api/Dev/Outbox?to=${member.PhoneNumber}&limit=1`);
  const [sms] = (await res.json()) as { Body: string }[];
  expect(sms?.Body).toMatch(/^Your ParkIt registration code is \d{6}\./);
  await page.getByRole('link', { name: 'Skip for now' }).click();
  await expect(page).toHaveURL(/\/homepage$/);
});

test('the Max Payment Amount switch shows its amount while off', async ({ page }) => {
  await registerNewMember(page);
  await page.goto('/profile');
  const max = page.getByRole('switch', { name: 'Max Payment Amount' });
  await expect(max).toHaveAttribute('aria-checked', 'false');
  await expect(page.getByText('Limit when on: $20.00 per session')).toBeVisible();
  await max.click();
  await expect(page.getByLabel('Maximum per session')).toHaveValue('20.00');
});

test('the screens before signing in break no Content Security Policy', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) violations.push(`${page.url()}: ${m.text()}`);
  });
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  for (const path of ['/parkit', '/login', '/login?mode=otp', '/register', '/otp?phone=5550001111', '/homepage']) {
    await page.goto(path);
    await expect(page.locator('main')).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  expect(violations).toEqual([]);
});

import { chromium, type BrowserContext } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, registerNewMember, test } from '../fixtures.ts';

/**
 * The Reminders card (docs/product.md#reminders): the lead time and SMS are saved; push is turned
 * on by subscribing this browser. Headless Chromium here reaches no push service, so its
 * pushManager.subscribe() is refused: the card must say so and leave push off. The server's half
 * (sending to a push service) is apps/server/test/routes/api/push.test.ts; the service worker's
 * (showing a pushed reminder) is pwa.spec.ts.
 */
test.describe('reminders', () => {
  let context: BrowserContext;
  let dir: string;
  test.beforeEach(async ({ baseURL }) => {
    // Notifications need a profile that is not off the record, as in pwa.spec.ts.
    dir = mkdtempSync(join(tmpdir(), 'parkit-reminders-'));
    context = await chromium.launchPersistentContext(dir, {
      ...test.info().project.use.launchOptions,
      baseURL,
      viewport: { width: 390, height: 844 },
      serviceWorkers: 'allow',
      permissions: ['notifications'],
    });
  });
  test.afterEach(async () => {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('saves the lead time, and leaves push off when this browser cannot subscribe', async () => {
    const page = context.pages()[0] ?? (await context.newPage());
    await registerNewMember(page, context.request);
    await page.goto('/profile');
    await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, null, { timeout: 40_000 });
    const card = page.getByRole('region', { name: 'Reminders' });
    await expect(card.getByRole('radio', { name: '10 minutes' })).toBeChecked();

    const saved = page.waitForResponse(
      (r) => r.url().endsWith('/api/Account/Reminders') && r.request().method() === 'POST',
    );
    await card.getByText('30 minutes').click();
    expect((await (await saved).json()) as unknown).toMatchObject({ ReminderMinutes: 30 });
    await expect(card.getByRole('radio', { name: '30 minutes' })).toBeChecked();

    // Headless Chromium has no push service to reach: subscribe() never succeeds. The card says so
    // within its 15 s, sends no subscription, and leaves push off (saved off at the server too).
    const posted: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/Push/Subscription')) posted.push(r.url());
    });
    const push = card.getByRole('switch', { name: 'Push notifications on this device' });
    await push.click();
    await expect(push).toBeDisabled();
    await expect(page.getByText('Push notifications could not be turned on. Try again later.')).toBeVisible({
      timeout: 25_000,
    });
    await expect(push).toHaveAttribute('aria-checked', 'false');
    await expect(push).toBeEnabled();
    expect(posted).toEqual([]);
    const settings = await page.request.get('/api/Account/Reminders', {
      headers: { authorization: `Bearer ${await page.evaluate(() => localStorage.getItem('access_token'))}` },
    });
    expect(await settings.json()).toMatchObject({ ReminderMinutes: 30, PushReminders: false, SmsReminders: true });

    await page.reload();
    await expect(card.getByRole('radio', { name: '30 minutes' })).toBeChecked();
    await expect(card.getByRole('switch', { name: 'Text messages (SMS)' })).toHaveAttribute('aria-checked', 'true');
  });
});

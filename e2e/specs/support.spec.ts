import type { Browser, Page } from '@playwright/test';
import { expect, registerNewMember, signIn, test } from '../fixtures.ts';

/**
 * Support hub, Request call back and Support chat (docs/product.md#screens) against the real
 * server, answered live from the support console by an agent in a second browser context.
 */

// Made by `npm run support:agent` before the server starts (playwright.config.ts).
const AGENT = { username: 'e2e_agent', password: 'e2e-agent-pass' };
// The smallest valid PNG.
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/** A date `days` ahead in the support time zone (America/Chicago), as the date input takes it. */
const dayAhead = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(new Date(Date.now() + days * 86_400_000));

async function agentPage(browser: Browser): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  await signIn(page, AGENT.username, AGENT.password);
  // An agent lands on the console.
  await expect(page).toHaveURL(/\/support-console$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Support console');
  return page;
}

const messages = (page: Page) => page.getByRole('log', { name: 'Messages' });
const input = (page: Page) => page.getByPlaceholder('Ask your question...');

test('a driver chats with support: sent at once, answered live, kept after reload', async ({ page, browser }) => {
  const driver = await registerNewMember(page);
  await page.goto('/supportpage');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Account');
  await expect(page.getByRole('link', { name: 'Request call back' })).toHaveAttribute('href', '/requestcall');
  await page.getByRole('link', { name: 'Support Chat' }).click();
  await expect(page).toHaveURL(/\/chatsupport$/);
  await expect(page.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/supportpage');

  // The server's greeting opens the conversation, under TODAY; the list is at most 400px high.
  const log = messages(page);
  await expect(log.getByRole('article', { name: 'Message from Support' })).toContainText('How can we help you today?');
  await expect(log.getByRole('separator')).toHaveText('TODAY');
  expect(await log.evaluate((el) => getComputedStyle(el).maxHeight)).toBe('400px');
  const mine = log.getByRole('article', { name: 'Message from You' });

  // Blank and whitespace-only text is not sent, by Enter or by the button.
  await input(page).press('Enter');
  await input(page).fill('    ');
  await page.getByRole('button', { name: 'Send' }).click();
  await input(page).press('Enter');
  await expect(mine).toHaveCount(0);

  // Enter sends; the message shows as 'You' with hours and minutes, then is confirmed.
  await input(page).fill('My meter <b>ate</b> my coins');
  await input(page).press('Enter');
  await expect(input(page)).toHaveValue('');
  await expect(mine).toHaveCount(1);
  await expect(mine.first()).toContainText('My meter <b>ate</b> my coins');
  await expect(mine.first().locator('time')).toHaveText(/^\d{2}:\d{2} (AM|PM)$/);
  await expect(mine.first().getByText('Sending')).toHaveCount(0);

  // An image goes with the button.
  await page.getByLabel('Attach a file').setInputFiles({ name: 'meter.png', mimeType: 'image/png', buffer: PNG });
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(mine).toHaveCount(2);
  await expect(mine.nth(1).getByRole('img', { name: 'meter.png' })).toBeVisible();
  await expect(mine.nth(1).getByText('Sending')).toHaveCount(0);

  // The agent sees the conversation with its unread count, opens it, replies.
  const agent = await agentPage(browser);
  const name = `${driver.FirstName} ${driver.LastName}`;
  await expect(agent.getByRole('button', { name: `${name}, 2 unread` })).toBeVisible();
  // The list is live too: a new message raises the count without a reload.
  await input(page).fill('Zone 4411, Congress Ave');
  await input(page).press('Enter');
  const row = agent.getByRole('button', { name: `${name}, 3 unread` });
  await expect(row).toBeVisible();
  await row.click();
  const agentLog = messages(agent);
  await expect(agentLog.getByRole('article', { name: `Message from ${name}` }).first()).toContainText(
    'My meter <b>ate</b> my coins',
  );
  await expect(agentLog.getByRole('img', { name: 'meter.png' })).toBeVisible();
  await input(agent).fill('A warden is on the way');
  await input(agent).press('Enter');

  // The driver sees the reply without reloading.
  await expect(log.getByRole('article', { name: 'Message from Support' }).last()).toContainText(
    'A warden is on the way',
  );

  // And the agent sees the driver's next message live.
  await input(page).fill('Thank you!');
  await page.getByRole('button', { name: 'Send' }).click();
  await expect(agentLog.getByRole('article', { name: `Message from ${name}` }).last()).toContainText('Thank you!');

  // Stored: a reload shows the whole conversation.
  await page.reload();
  await expect(mine).toHaveCount(4);
  await expect(log.getByRole('article', { name: 'Message from Support' })).toHaveCount(2);
  await agent.context().close();
});

test('a failed send is marked and retried once the server is reachable', async ({ page }) => {
  await registerNewMember(page);
  await page.goto('/chatsupport');
  await expect(messages(page).getByRole('article', { name: 'Message from Support' })).toBeVisible();
  // The network drops for the send only.
  await page.route('**/api/Support/Chat/Send', (route) => route.abort());
  await input(page).fill('Are you there?');
  await input(page).press('Enter');
  const mine = messages(page).getByRole('article', { name: 'Message from You' });
  await expect(mine.getByText('Not sent')).toBeVisible();
  await page.unroute('**/api/Support/Chat/Send');
  await mine.getByRole('button', { name: 'Retry' }).click();
  await expect(mine.getByText('Not sent')).toHaveCount(0);
  await page.reload();
  await expect(mine).toHaveCount(1);
  await expect(mine).toContainText('Are you there?');
});

test('a driver requests a call back; the agent marks it called and the driver sees it', async ({ page, browser }) => {
  const driver = await registerNewMember(page);
  await page.goto('/supportpage');
  await expect(page.getByText('You have no call-back requests.')).toBeVisible();
  await page.getByRole('link', { name: 'Request call back' }).click();
  await expect(page).toHaveURL(/\/requestcall$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Request call back');
  await expect(page.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/supportpage');

  // The phone comes from the profile; digit keys only.
  const phone = page.getByLabel('Phone', { exact: true });
  await expect(phone).toHaveValue(driver.PhoneNumber);
  await phone.fill('');
  await phone.pressSequentially('5a1-2b');
  await expect(phone).toHaveValue('512');
  await phone.fill('');

  // Each validation message of docs/product.md#validation.
  await page.getByRole('button', { name: 'Request Call Back' }).click();
  for (const message of ['Phone is Required', 'Date is Required', 'Time is Required']) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }

  await phone.pressSequentially('5125550199');
  await page.getByLabel('Date', { exact: true }).fill(dayAhead(2));
  const time = page.getByLabel('Time', { exact: true });
  // Only slots within support hours are offered.
  await expect(time.locator('option').nth(1)).toHaveText('09:00 AM');
  await expect(time.locator('option').last()).toHaveText('05:30 PM');
  await time.selectOption('10:00');
  await page.getByRole('button', { name: 'Request Call Back' }).click();

  const dialog = page.getByRole('dialog', { name: 'Call back Request Received' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('You will receive a call at the scheduled time.');
  await dialog.getByRole('button', { name: 'Ok, Thank You' }).click();
  await expect(page).toHaveURL(/\/supportpage$/);
  const request = page.getByRole('listitem').filter({ hasText: '5125550199' });
  await expect(request).toContainText('10:00 AM');
  await expect(request).toContainText('Scheduled');

  // The same slot again is refused clearly.
  await page.goto('/requestcall');
  await page.getByLabel('Date', { exact: true }).fill(dayAhead(2));
  await page.getByLabel('Time', { exact: true }).selectOption('10:00');
  await page.getByRole('button', { name: 'Request Call Back' }).click();
  await expect(page.getByText('You already asked for a call at this time')).toBeVisible();
  await page.goto('/supportpage');

  // The agent closes it from the queue; the driver's hub shows it without a reload.
  const agent = await agentPage(browser);
  await agent.getByRole('tab', { name: /Call backs/ }).click();
  const item = agent.getByRole('listitem', { name: `Call back for ${driver.FirstName} ${driver.LastName}` });
  await item.getByRole('button', { name: 'Called' }).click();
  await expect(item.getByRole('button', { name: 'Called' })).toHaveCount(0);
  await expect(request).toContainText('Called');
  // The agent signs out from the console.
  await agent.getByRole('button', { name: 'Logout' }).click();
  await expect(agent).toHaveURL(/\/parkit$/);
  await agent.context().close();
});

test('a member cannot open the console', async ({ page }) => {
  await registerNewMember(page);
  await page.goto('/support-console');
  await expect(page.getByText('Only support agents can open the console')).toBeVisible();
});

test('support in Hindi', async ({ page }) => {
  await registerNewMember(page);
  await page.evaluate(() => localStorage.setItem('language', 'hi'));
  await page.goto('/requestcall');
  await page.getByLabel('फ़ोन', { exact: true }).fill('');
  await page.getByRole('button', { name: 'कॉल बैक का अनुरोध करें' }).click();
  for (const message of ['फ़ोन आवश्यक है', 'तारीख आवश्यक है', 'समय आवश्यक है']) {
    await expect(page.getByText(message, { exact: true })).toBeVisible();
  }
  await page.goto('/chatsupport');
  await expect(page.getByPlaceholder('अपना प्रश्न पूछें...')).toBeVisible();
  await expect(page.getByRole('separator')).toHaveText('आज');
  await expect(page.getByRole('log').getByRole('article')).toContainText('आज हम आपकी कैसे मदद कर सकते हैं?');
});

import type { APIRequestContext, Browser } from '@playwright/test';
import { apiSignIn, authHeaders, DEMO, expect, signIn, signInAsDemo, test } from '../fixtures.ts';
import { inviteCode, noSeriousFindings, OWNER, verifiedMember } from '../operator-fixtures.ts';

/**
 * The operator's console (docs/product.md#the-operators-console) against the real server: the demo
 * operator's owner (seeded on first start) invites people by phone, they join with the code from
 * the outbox, roles decide what each sees; a driver never sees the console.
 */

test.use({ reducedMotion: 'reduce' });

/** A new driver with a verified phone, signed in through the app in a browser of its own. */
async function newPerson(browser: Browser, request: APIRequestContext) {
  const member = await verifiedMember(request);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  const page = await context.newPage();
  await signIn(page, member.UserName, member.Password);
  return { member, page };
}

test('the owner invites a manager by phone; the manager joins with the code; the audit log shows both', async ({
  page,
  browser,
  request,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 1280, height: 900 });
  await signIn(page, OWNER.username, OWNER.password);
  // Staff land on the console, at the first operator's dashboard.
  await expect(page).toHaveURL(/\/operator\/\d+\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'People' }).click();
  await expect(page.getByRole('heading', { name: 'People', level: 1 })).toBeVisible();
  await expect(page.getByText('Your role: Owner')).toBeVisible();
  await noSeriousFindings(page);

  const { member, page: manager } = await newPerson(browser, request);
  // Not on the team yet: a driver, sent home from the console.
  await manager.goto('/operator');
  await expect(manager).toHaveURL(/\/homepage$/);

  await page.getByLabel('Phone or e-mail').fill(member.PhoneNumber);
  await page.getByLabel('Role', { exact: true }).selectOption('manager');
  await page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByText('Invitation sent')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Waiting invitations' }).getByText(member.PhoneNumber)).toBeVisible();

  const code = await inviteCode(request, member.PhoneNumber);
  await manager.goto('/operator/join');
  await manager.getByLabel('Invitation code').fill(code);
  await manager.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(manager).toHaveURL(/\/operator\/\d+\/people$/);
  await expect(manager.getByText('Your role: Manager')).toBeVisible();
  // A manager reads the team and changes nothing of it.
  await expect(manager.getByText(member.UserName).first()).toBeVisible();
  await expect(manager.getByRole('button', { name: 'Send invitation' })).toHaveCount(0);
  await expect(manager.getByRole('button', { name: 'Remove' })).toHaveCount(0);

  // The owner sees the manager on the team, and the log of what happened.
  await page.reload();
  await expect(page.getByLabel(`Role of ${member.UserName}`)).toHaveValue('manager');
  await page.getByRole('link', { name: 'Audit log' }).click();
  await expect(page.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  const entries = page.getByRole('listitem');
  await expect(entries.filter({ hasText: 'Joined the team' }).filter({ hasText: `by ${member.UserName}` })).toHaveCount(
    1,
  );
  await expect(entries.filter({ hasText: 'Invitation sent' }).filter({ hasText: member.PhoneNumber })).toHaveCount(1);
  await noSeriousFindings(page);
  await manager.context().close();
});

test('an analyst reads the console and cannot change it, at 390 px too', async ({ browser, request }) => {
  test.setTimeout(120_000);
  // The owner invites through the API; the analyst joins through the app.
  const owner = authHeaders(await apiSignIn(request, OWNER.username, OWNER.password));
  const [mine] = (await (await request.get('/api/Operator/Mine', { headers: owner })).json()) as {
    OperatorId: number;
  }[];
  const { member, page: analyst } = await newPerson(browser, request);
  const invited = await request.post(`/api/Operator/${mine!.OperatorId}/Invites`, {
    headers: owner,
    data: { Contact: member.PhoneNumber, Role: 'analyst' },
  });
  expect(invited.status()).toBe(201);
  await analyst.goto('/operator/join');
  await analyst.getByLabel('Invitation code').fill(await inviteCode(request, member.PhoneNumber));
  await analyst.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(analyst.getByText('Your role: Analyst')).toBeVisible();
  await analyst.setViewportSize({ width: 390, height: 844 });
  await expect(analyst.getByRole('heading', { name: 'People', level: 1 })).toBeVisible();
  await expect(analyst.getByRole('button', { name: 'Send invitation' })).toHaveCount(0);
  await expect(analyst.getByRole('combobox')).toHaveCount(0);
  // Nothing wider than the phone.
  expect(await analyst.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await analyst.getByRole('link', { name: 'Audit log' }).click();
  await expect(analyst.getByRole('heading', { name: 'Audit log', level: 1 })).toBeVisible();
  // The server refuses the analyst's change whatever the screen shows.
  const token = await apiSignIn(request, member.UserName, member.Password);
  const refused = await request.post(`/api/Operator/${mine!.OperatorId}/Invites`, {
    headers: authHeaders(token),
    data: { Contact: '5125550177', Role: 'owner' },
  });
  expect(refused.status()).toBe(403);
  await analyst.context().close();
});

test('a driver gets no console', async ({ page, request }) => {
  await signInAsDemo(page);
  await page.goto('/operator');
  await expect(page).toHaveURL(/\/homepage$/);
  const token = await apiSignIn(request, DEMO.username, DEMO.password);
  const res = await request.get('/api/Operator/Mine', { headers: authHeaders(token) });
  expect(res.status()).toBe(403);
});

test('the console in Hindi', async ({ page }) => {
  await signIn(page, OWNER.username, OWNER.password);
  await expect(page).toHaveURL(/\/operator\/\d+\/dashboard$/);
  await page.evaluate(() => localStorage.setItem('language', 'hi'));
  await page.reload();
  await expect(page.getByRole('heading', { name: 'डैशबोर्ड', level: 1 })).toBeVisible();
  await page.getByRole('link', { name: 'लोग' }).click();
  await expect(page.getByRole('heading', { name: 'लोग', level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'ऑडिट लॉग' })).toBeVisible();
});

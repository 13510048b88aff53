import { test as base, expect, type APIRequestContext, type Page } from '@playwright/test';
import { describeFindings, findingsOf, TEST_HEADER } from './contract/protocol.ts';

export { expect };

/**
 * Every spec's `test`: Playwright's, with
 * - its id on every request its browser contexts and API contexts send, for the validating proxy
 *   in front of the server (contract/proxy.ts, playwright.config.ts);
 * - the test failed, at its end, for each answer that disagreed with the OpenAPI document;
 * - an API context (`request`) that opens a connection per request. The default one keeps a
 *   connection alive between calls; a spec that spends more than the server's 5 s keep-alive on
 *   the page between two calls then sends on a connection the server has just closed, and gets
 *   ECONNRESET (seen in CI on history.spec.ts).
 */
export const test = base.extend<{ contract: void }>({
  extraHTTPHeaders: async ({ extraHTTPHeaders }, use, testInfo) => {
    await use({ ...extraHTTPHeaders, [TEST_HEADER]: testInfo.testId });
  },
  request: async ({ playwright, baseURL, extraHTTPHeaders }, use) => {
    const context = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: { ...extraHTTPHeaders, connection: 'close' },
    });
    await use(context);
    await context.dispose();
  },
  // Set up first, torn down last: after the test's pages and contexts have closed.
  contract: [
    async ({ baseURL }, use, testInfo) => {
      await use();
      const findings = await findingsOf(baseURL!, testInfo.testId);
      if (findings.length > 0)
        throw new Error(
          `Answers that disagree with the OpenAPI document (GET /api/docs/json):\n${describeFindings(findings)}`,
        );
    },
    { auto: true },
  ],
});

/**
 * Shared helpers for every e2e spec: real sign-up and sign-in against the real server, codes read
 * from the development outbox (GET /api/Dev/Outbox), never mocked.
 */

/** Seeded on first start (apps/server/src/seeds/demo-member.ts); has a vehicle and client_id > 0. */
export const DEMO = { username: 'demo', password: 'parkit-demo', firstName: 'Dana', phone: '5125550100' } as const;

export interface NewMember {
  FirstName: string;
  LastName: string;
  UserName: string;
  EmailAddress: string;
  PhoneNumber: string;
  Password: string;
}

let seq = 0;
/** A member nobody else uses: unique username, email and 10-digit phone per call. */
export function newMemberData(overrides: Partial<NewMember> = {}): NewMember {
  seq += 1;
  const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}${seq}`.slice(-12);
  const digits = `${Date.now()}${process.pid}${seq}${Math.floor(Math.random() * 1e6)}`.replace(/\D/g, '');
  return {
    FirstName: 'Riley',
    LastName: 'Tester',
    UserName: `e2e_${stamp}`,
    EmailAddress: `e2e_${stamp}@example.test`,
    // 55 + 8 digits: never the demo member's 512 number.
    PhoneNumber: `55${digits.slice(-8)}`,
    Password: 'correct-horse-42',
    ...overrides,
  };
}

interface OutboxMessage {
  Id: number;
  To: string;
  Body: string;
}

/** Highest outbox id for a phone so far (0 if none): pass it to readCode to wait for a newer one. */
export async function lastOutboxId(request: APIRequestContext, phone: string): Promise<number> {
  const res = await request.get(`/api/Dev/Outbox?to=${phone}&limit=1`);
  expect(res.ok()).toBeTruthy();
  const rows = (await res.json()) as OutboxMessage[];
  return rows[0]?.Id ?? 0;
}

/**
 * The newest 6-digit code sent to a phone after `afterId` (waits for it to arrive).
 * `kind` picks sign-in codes, registration codes or password-reset codes.
 */
export async function readCode(
  request: APIRequestContext,
  phone: string,
  opts: { afterId?: number; kind?: 'sign-in' | 'registration' | 'password reset' } = {},
): Promise<string> {
  const { afterId = 0, kind } = opts;
  let code = '';
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/Dev/Outbox?to=${phone}&limit=20`);
        const rows = (await res.json()) as OutboxMessage[];
        const hit = rows.find((r) => r.Id > afterId && (!kind || r.Body.includes(`${kind} code`)));
        code = /\b(\d{6})\b/.exec(hit?.Body ?? '')?.[1] ?? '';
        return code;
      },
      { message: `a code for ${phone} in the outbox`, timeout: 10_000 },
    )
    .not.toBe('');
  return code;
}

/** POST /api/Account/Register; the phone then holds an unused sign-in code (the registration SMS). */
export async function registerViaApi(
  request: APIRequestContext,
  member: NewMember = newMemberData(),
): Promise<NewMember> {
  const res = await request.post('/api/Account/Register', { data: member });
  expect(res.status(), await res.text()).toBe(201);
  return member;
}

/** The token POST with a password: for specs that need a bearer token for direct API calls. */
export async function apiSignIn(request: APIRequestContext, username: string, password: string) {
  const res = await request.post('/token', { form: { grant_type: 'password', username, password } });
  expect(res.status(), await res.text()).toBe(200);
  return (await res.json()) as { access_token: string; member_id: number };
}

/** Headers for direct API calls as a member (the spec's bearer + xapikey). */
export function authHeaders(token: { access_token: string; member_id: number }): Record<string, string> {
  return { authorization: `Bearer ${token.access_token}`, xapikey: String(token.member_id) };
}

/** Types a code into the /otp screen and submits it. */
export async function enterCode(page: Page, code: string) {
  await page.getByLabel('Verification code').fill(code);
  await page.getByRole('button', { name: 'Verify' }).click();
}

/**
 * A brand-new member, registered through the API and verified through the app's /otp screen as a
 * driver would. Ends signed in on /addvehicles (no vehicle yet).
 */
export async function registerNewMember(
  page: Page,
  request: APIRequestContext = page.request,
  overrides: Partial<NewMember> = {},
): Promise<NewMember> {
  const member = await registerViaApi(request, newMemberData(overrides));
  const code = await readCode(request, member.PhoneNumber, { kind: 'registration' });
  await page.goto(`/otp?phone=${member.PhoneNumber}&purpose=register`);
  await enterCode(page, code);
  await expect(page).toHaveURL(/\/addvehicles$/);
  return member;
}

/** Signs in through /login with a password; waits until the app has left the login page. */
export async function signIn(page: Page, username: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Username or Email').fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Login', exact: true }).click();
  await expect(page).not.toHaveURL(/\/login$/);
}

/** The seeded demo member (has a vehicle): ends on /homepage. */
export async function signInAsDemo(page: Page) {
  await signIn(page, DEMO.username, DEMO.password);
  await expect(page).toHaveURL(/\/homepage$/);
}

/** 'Continue as guest' from the landing page: ends on /homepage with is_guestUser 'true'. */
export async function continueAsGuest(page: Page) {
  await page.goto('/parkit');
  await page.getByRole('button', { name: 'Continue as guest' }).click();
  await expect(page).toHaveURL(/\/homepage$/);
}

/** A localStorage value of the app (the spec's keys). */
export function stored(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => localStorage.getItem(k), key);
}

import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Page } from '@playwright/test';
import { apiSignIn, authHeaders, expect, newMemberData, readCode, registerViaApi, type NewMember } from './fixtures.ts';

/** The demo operator's owner, seeded on first start (README: the demo sign-ins). */
export const OWNER = { username: 'operator', password: 'parkit-operator' } as const;

/** The newest invitation code (8 digits) sent to a phone, read from the development outbox. */
export async function inviteCode(request: APIRequestContext, phone: string): Promise<string> {
  let code = '';
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/Dev/Outbox?to=${phone}&limit=5`);
        const rows = (await res.json()) as { Body: string }[];
        // The invitation in any language: it names /operator/join and its code of 8 digits.
        code = /\b(\d{8})\b/.exec(rows.find((r) => r.Body.includes('/operator/join'))?.Body ?? '')?.[1] ?? '';
        return code;
      },
      { message: `an invitation code for ${phone} in the outbox`, timeout: 10_000 },
    )
    .not.toBe('');
  return code;
}

/** A new driver whose phone is verified with the registration code. */
export async function verifiedMember(request: APIRequestContext): Promise<NewMember> {
  const member = await registerViaApi(request, newMemberData());
  const code = await readCode(request, member.PhoneNumber, { kind: 'registration' });
  const verified = await request.post('/token', { form: { grant_type: 'otp', phone: member.PhoneNumber, code } });
  expect(verified.status()).toBe(200);
  return member;
}

/** The demo operator's owner signed in by API: its headers and the operator's id. */
export async function demoOwner(request: APIRequestContext) {
  const owner = authHeaders(await apiSignIn(request, OWNER.username, OWNER.password));
  const mine = (await (await request.get('/api/Operator/Mine', { headers: owner })).json()) as { OperatorId: number }[];
  return { owner, operatorId: mine[0]!.OperatorId };
}

/** A new person with the role at the operator: invited by the owner, joined with the code, by API. */
export async function joinedStaff(
  request: APIRequestContext,
  operatorId: number,
  owner: Record<string, string>,
  role: 'manager' | 'analyst' | 'officer',
) {
  const member = await verifiedMember(request);
  const invited = await request.post(`/api/Operator/${operatorId}/Invites`, {
    headers: owner,
    data: { Contact: member.PhoneNumber, Role: role },
  });
  expect(invited.status(), await invited.text()).toBe(201);
  const token = await apiSignIn(request, member.UserName, member.Password);
  const joined = await request.post('/api/Account/OperatorInvite', {
    headers: authHeaders(token),
    data: { Code: await inviteCode(request, member.PhoneNumber) },
  });
  expect(joined.status(), await joined.text()).toBe(200);
  return { member, token };
}

/**
 * No serious or critical axe finding on the page, once its skeletons are gone. `exclude`: selectors
 * axe leaves out (a map's canvas of hundreds of drawn discs, which axe walks for minutes; the
 * region around it, with its label, is still checked).
 */
export async function noSeriousFindings(page: Page, opts: { exclude?: string[] } = {}) {
  await expect(page.locator('.animate-pulse')).toHaveCount(0);
  let axe = new AxeBuilder({ page });
  for (const selector of opts.exclude ?? []) axe = axe.exclude(selector);
  const { violations } = await axe.analyze();
  expect(
    violations
      .filter((v) => v.impact === 'serious' || v.impact === 'critical')
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

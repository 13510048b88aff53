import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { AccountDetails, UpdateAccountRequest, UserData } from '@parkit/contract';
import {
  as,
  buildTestApp,
  expectFieldErrors,
  expectRefused as expectRefusedShared,
  registerAndSignIn,
  type SignedIn,
} from '../../helpers.ts';

const { app } = await buildTestApp();
const [alice, bob] = [await registerAndSignIn(app), await registerAndSignIn(app)];

async function details(who: SignedIn): Promise<AccountDetails> {
  const res = await as(app, who, { method: 'GET', url: '/api/Account/Details' });
  expect(res.statusCode).toBe(200);
  return res.json<AccountDetails>();
}

/** The spec's payload as the Edit Profile screen builds it from user_data. */
async function payload(who: SignedIn, changes: Partial<Record<keyof UpdateAccountRequest, unknown>> = {}) {
  const d = await details(who);
  return {
    ID: d.MemberId,
    EmailAddress: d.EmailAddress,
    PhoneNumber: d.PhoneNumber,
    FirstName: d.FirstName,
    LastName: d.LastName,
    UserName: d.UserName,
    AddressLine1: '100 Congress Ave',
    AddressLine2: 'Suite 5',
    City: 'Austin',
    State: 'TX',
    ZipCode: '78701',
    MinBalance: d.MinBalance || '0',
    ...changes,
  };
}

const update = (who: SignedIn, body: unknown) =>
  as(app, who, { method: 'POST', url: '/api/Account/Update', payload: body as Record<string, unknown> });

/** A refusal of this route: both message and Message (the spec's screen shows Message). */
function expectRefused(res: LightMyRequestResponse, status: number, field?: string) {
  expectRefusedShared(res, status, field);
  const body = res.json<{ message: string; Message: string }>();
  expect(body.Message).toBe(body.message);
}

describe('POST /api/Account/Update', () => {
  it('saves the address and answers the user data with the spec’s toast text', async () => {
    const res = await update(alice, await payload(alice, { ZipCode: '787011234', City: '  Austin ' }));
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<UserData & { message: string }>();
    expect(body.message).toBe('User Updated');
    expect(body).toMatchObject({
      AddressLine1: '100 Congress Ave',
      AddressLine2: 'Suite 5',
      City: 'Austin',
      State: 'TX',
      ZipCode: '78701-1234',
    });
    const { message: _m, ...userData } = body;
    expect(await details(alice)).toMatchObject(userData);
  });

  it('never changes username, email, phone or MinBalance, whatever the body says', async () => {
    const before = await details(alice);
    const res = await update(
      alice,
      await payload(alice, {
        UserName: 'someone_else',
        EmailAddress: 'other@example.com',
        PhoneNumber: '5125550199',
        MinBalance: '75.00',
        City: 'Dallas',
      }),
    );
    expect(res.statusCode, res.body).toBe(200);
    const after = await details(alice);
    expect(after).toMatchObject({
      UserName: before.UserName,
      EmailAddress: before.EmailAddress,
      PhoneNumber: before.PhoneNumber,
      MinBalance: before.MinBalance,
      City: 'Dallas',
    });
    // The body's values may even be someone else's: they are not read.
    const bobs = await details(bob);
    expect(
      (await update(alice, await payload(alice, { UserName: bobs.UserName, EmailAddress: bobs.EmailAddress })))
        .statusCode,
    ).toBe(200);
  });

  it('keeps the names when the body leaves them blank, and works without ID', async () => {
    const before = await details(alice);
    const { ID: _id, ...noId } = await payload(alice, { FirstName: '', LastName: '  ' });
    expect((await update(alice, noId)).statusCode).toBe(200);
    expect(await details(alice)).toMatchObject({ FirstName: before.FirstName, LastName: before.LastName });
  });

  it('refuses another member’s ID with 403 and changes nothing', async () => {
    const before = await details(bob);
    expectRefused(await update(alice, await payload(alice, { ID: bob.memberId, City: 'Hacked' })), 403);
    expect(await details(bob)).toEqual(before);
  });

  it('refuses each field missing, wrong-typed, oversized or hostile, changing nothing', async () => {
    const before = await details(alice);
    const base = await payload(alice, { City: 'Nowhere' });
    const bad: Record<string, unknown[]> = {
      AddressLine1: ['', '   ', 42, null, [], {}, 'x'.repeat(10_000), 'a\u0000b'],
      City: ['', 42, null, ['Austin'], 'x'.repeat(10_000), 'a\u0000b'],
      State: ['', 'ZZ', 'tx', 'Texas', "' OR 1=1 --", 42, null],
      ZipCode: ['', '7870', '787012', '78701-12', 'abcde', '<script>', 78701, null],
      EmailAddress: ['', 'not-an-email', 42, null],
      PhoneNumber: ['', '12', '5125550100x', 5125550100, null],
      UserName: ['', 'a', '<script>alert(1)</script>', "' OR 1=1 --", null],
      FirstName: [42, 'x'.repeat(51), 'a\u0000b', []],
      LastName: [{}, 'x'.repeat(51)],
      AddressLine2: [true, 'x'.repeat(101), 'a\u0000b'],
      MinBalance: ['abc', '1.234', [], {}, 'x'.repeat(10_000)],
      ID: ['abc', 0, -1, 1.5, true, [], '0x10'],
    };
    for (const [field, values] of Object.entries(bad)) {
      for (const value of values) expectRefused(await update(alice, { ...base, [field]: value }), 400, field);
      if (!['FirstName', 'LastName', 'AddressLine2', 'MinBalance', 'ID'].includes(field)) {
        const { [field]: _omit, ...rest } = base as Record<string, unknown>;
        expectRefused(await update(alice, rest), 400, field);
      }
    }
    const json = { 'content-type': 'application/json' };
    for (const body of ['null', '[]', '"x"', '{"City":']) {
      expectRefused(
        await as(app, alice, { method: 'POST', url: '/api/Account/Update', payload: body, headers: json }),
        400,
      );
    }
    expect(await details(alice)).toEqual(before);
  });

  it('names the State field for an unknown state and gives the spec’s messages', async () => {
    const res = await update(alice, await payload(alice, { State: 'XX' }));
    expectRefused(res, 400, 'State');
    const missing = await update(alice, await payload(alice, { AddressLine1: '', City: '', ZipCode: '' }));
    expectFieldErrors(missing, {
      AddressLine1: 'AddressLine1 is Required',
      City: 'City is Required',
      ZipCode: 'ZipCode is Required',
    });
  });

  it('needs a signed-in member', async () => {
    expectRefused(await app.inject({ method: 'POST', url: '/api/Account/Update', payload: await payload(alice) }), 401);
    const otherKey = { ...alice, headers: { ...alice.headers, xapikey: String(bob.memberId) } };
    expectRefused(await update(otherKey, await payload(alice)), 403);
  });
});

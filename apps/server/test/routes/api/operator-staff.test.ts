import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { OPERATOR_MESSAGES as M, type AuditPage, type StaffMember } from '@parkit/contract';
import { as, buildTestApp, expectRefused, freshLimitsEachTest, registerAndSignIn } from '../../helpers.ts';
import { concurrently, statusCounts } from '../../concurrency.ts';
import { queryRows } from '../../../src/db/client.ts';
import { defaultOperatorId } from '../../../src/zones/index.ts';
import { addStaff } from '../../../src/operators/index.ts';
import { tableChecksums } from '../../guards/checksums.ts';
import { inviteAndAccept, lastInviteCode, newOperator, signedInOwner, staffMember } from '../../operator-helpers.ts';

// The operator's people (operators/README.md): the operatorOnly scope, invitations, roles, the
// last owner, the audit log; another operator's ids are 404, a driver gets 403.
const { app, database } = await buildTestApp();
const { db } = database;
freshLimitsEachTest(database);
const A = await defaultOperatorId(db);
const B = await newOperator(db, 'Other City Parking');
const owner = await signedInOwner(app, db, A);
const ownerB = await signedInOwner(app, db, B);

const get = (who: Parameters<typeof as>[1], url: string) => as(app, who, { method: 'GET', url });
const post = (who: Parameters<typeof as>[1], url: string, payload: object = {}) =>
  as(app, who, { method: 'POST', url, payload });
const staffList = async (operatorId: number, who = owner) =>
  (await get(who, `/api/Operator/${operatorId}/Staff`)).json<StaffMember[]>();
const auditActions = async (who = owner, operatorId = A) =>
  (await get(who, `/api/Operator/${operatorId}/Audit?limit=100`)).json<AuditPage>().Entries.map((e) => e.Action);

describe('the operator scope', () => {
  it('a driver gets 403 on every operator route, even with bad input, and never sees an operator', async () => {
    const driver = await registerAndSignIn(app);
    for (const url of [
      '/api/Operator/Mine',
      `/api/Operator/${A}/Staff`,
      `/api/Operator/${A}/Audit`,
      '/api/Operator/x/Staff',
    ])
      expectRefused(await get(driver, url), 403, undefined, M.staffOnly);
    expectRefused(await post(driver, `/api/Operator/${A}/Invites`, { Contact: driver.phone, Role: 'owner' }), 403);
    expectRefused(await post(driver, `/api/Operator/${A}/Staff/${owner.memberId}/Remove`), 403);
    expect((await staffList(A)).map((s) => s.MemberId)).not.toContain(driver.memberId);
  });

  it('without a token: 401', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/Operator/Mine' });
    expect(res.statusCode).toBe(401);
  });

  it('Mine lists the operators of the person with their roles; several are allowed', async () => {
    const both = await staffMember(app, db, A, 'analyst');
    await addStaff(db, B, both.memberId, 'manager');
    const mine = (await get(both, '/api/Operator/Mine')).json<{ OperatorId: number; Role: string }[]>();
    expect(mine.map((m) => [m.OperatorId, m.Role]).sort()).toEqual(
      [
        [A, 'analyst'],
        [B, 'manager'],
      ].sort(),
    );
  });

  it("another operator's id is a 404, a bad id a 400, and neither changes anything", async () => {
    const before = await tableChecksums(db);
    expectRefused(await get(owner, `/api/Operator/${B}/Staff`), 404, undefined, M.operatorNotFound);
    expectRefused(await get(owner, `/api/Operator/${B}/Audit`), 404);
    expectRefused(await get(owner, '/api/Operator/999999/Staff'), 404);
    expectRefused(await post(owner, `/api/Operator/${B}/Invites`, { Contact: '5125550199', Role: 'owner' }), 404);
    expectRefused(await post(owner, `/api/Operator/${B}/Staff/${ownerB.memberId}/Remove`), 404);
    expectRefused(await post(owner, `/api/Operator/${B}/Staff/${ownerB.memberId}/Role`, { Role: 'analyst' }), 404);
    expectRefused(await get(owner, '/api/Operator/0/Staff'), 400, 'operatorId');
    expectRefused(await get(owner, "/api/Operator/1'%20or%201=1/Staff"), 400, 'operatorId');
    expect(await tableChecksums(db)).toEqual(before);
  });

  it("an owner's own operator's person is not reachable through another operator's path", async () => {
    // ownerB works for B only: A's owner names ownerB under A's path: not on A's team, 404.
    expectRefused(
      await post(owner, `/api/Operator/${A}/Staff/${ownerB.memberId}/Remove`),
      404,
      undefined,
      M.personNotFound,
    );
    expect((await staffList(B, ownerB)).map((s) => s.MemberId)).toContain(ownerB.memberId);
  });

  it('roles: only an owner manages people; an analyst, officer or manager reads but cannot change', async () => {
    for (const role of ['manager', 'officer', 'analyst'] as const) {
      const who = await staffMember(app, db, A, role);
      expect((await get(who, `/api/Operator/${A}/Staff`)).statusCode).toBe(200);
      expect((await get(who, `/api/Operator/${A}/Audit`)).statusCode).toBe(200);
      const before = await tableChecksums(db);
      expectRefused(
        await post(who, `/api/Operator/${A}/Invites`, { Contact: '5125550198', Role: 'owner' }),
        403,
        undefined,
        M.roleNotAllowed,
      );
      expectRefused(await post(who, `/api/Operator/${A}/Staff/${who.memberId}/Role`, { Role: 'owner' }), 403);
      expectRefused(await post(who, `/api/Operator/${A}/Staff/${owner.memberId}/Remove`), 403);
      expectRefused(await get(who, `/api/Operator/${A}/Invites`), 403);
      expect(await tableChecksums(db)).toEqual(before);
    }
  });
});

describe('invitations', () => {
  it('by phone: the code goes through the outbox, the invitee accepts signed in and lands with the role; audited', async () => {
    const invitee = await registerAndSignIn(app);
    const res = await inviteAndAccept(app, owner, A, invitee, 'manager');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ OperatorId: A, Role: 'manager' });
    expect((await staffList(A)).find((s) => s.MemberId === invitee.memberId)?.Role).toBe('manager');
    expect((await get(invitee, '/api/Operator/Mine')).json()).toEqual([expect.objectContaining({ OperatorId: A })]);
    const entries = (await get(owner, `/api/Operator/${A}/Audit`)).json<AuditPage>().Entries;
    expect(entries[0]).toMatchObject({ Action: 'staff.join', ActorId: invitee.memberId, Before: null });
    expect(entries[0]!.After).toMatchObject({ MemberId: invitee.memberId, Role: 'manager' });
    expect(entries[1]).toMatchObject({ Action: 'invite.create', ActorId: owner.memberId });
    // Only the hash is kept.
    const code = await lastInviteCode(app, invitee.phone);
    const rows = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from operator_invites where code_hash like ${`%${code}%`}`,
    );
    expect(rows[0]!.n).toBe(0);
  });

  it('the invitation is written in the invited member’s language, else the console’s; the code works in each', async () => {
    const lastText = async (contact: string) =>
      (await app.inject({ method: 'GET', url: `/api/Dev/Outbox?to=${contact}&limit=1` })).json<{ Body: string }[]>()[0]!
        .Body;
    // A member who chose Hindi: Hindi, whatever the console speaks.
    const hindi = await registerAndSignIn(app);
    await db.execute(sql`update members set language = 'hi' where id = ${hindi.memberId}`);
    const toHindi = await as(app, owner, {
      method: 'POST',
      url: `/api/Operator/${A}/Invites`,
      payload: { Contact: hindi.phone, Role: 'officer' },
      headers: { 'accept-language': 'es-US' },
    });
    expect(toHindi.statusCode, toHindi.body).toBe(201);
    expect(await lastText(hindi.phone)).toMatch(
      /^आपको ParkIt पर .+ में अधिकारी के रूप में जुड़ने का आमंत्रण है। .*\/operator\/join .*कोड \d{8} /,
    );
    // A phone no member has: the console's language.
    const stranger = `51255${String(Date.now()).slice(-5)}`;
    const toStranger = await as(app, owner, {
      method: 'POST',
      url: `/api/Operator/${A}/Invites`,
      payload: { Contact: stranger, Role: 'analyst' },
      headers: { 'accept-language': 'es-US,es;q=0.9' },
    });
    expect(toStranger.statusCode, toStranger.body).toBe(201);
    expect(await lastText(stranger)).toMatch(
      /^Le invitan a unirse a .+ en ParkIt como analista\. .*\/operator\/join .*código \d{8}\. Vence en 7 días\.$/,
    );
    // The Hindi text's code is the one that works.
    const res = await post(hindi, '/api/Account/OperatorInvite', { Code: await lastInviteCode(app, hindi.phone) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ OperatorId: A, Role: 'officer' });
  });

  it('by e-mail: the code goes to the address and the member with that address accepts', async () => {
    const email = `Invitee${Date.now()}@Example.com`;
    const invitee = await registerAndSignIn(app, { EmailAddress: email });
    const inv = await post(owner, `/api/Operator/${A}/Invites`, { Contact: email, Role: 'analyst' });
    expect(inv.statusCode, inv.body).toBe(201);
    expect(inv.json()).toMatchObject({ Contact: email.toLowerCase(), Role: 'analyst' });
    const code = await lastInviteCode(app, email.toLowerCase());
    const res = await post(invitee, '/api/Account/OperatorInvite', { Code: code });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ OperatorId: A, Role: 'analyst' });
  });

  it('a code works only for the account it was sent to, once, and not after it is withdrawn', async () => {
    const invitee = await registerAndSignIn(app);
    const stranger = await registerAndSignIn(app);
    await post(owner, `/api/Operator/${A}/Invites`, { Contact: invitee.phone, Role: 'officer' });
    const code = await lastInviteCode(app, invitee.phone);
    expectRefused(await post(stranger, '/api/Account/OperatorInvite', { Code: code }), 400, 'Code', M.inviteInvalid);
    expect((await post(invitee, '/api/Account/OperatorInvite', { Code: code })).statusCode).toBe(200);
    expectRefused(await post(invitee, '/api/Account/OperatorInvite', { Code: code }), 400, 'Code');

    const later = await registerAndSignIn(app);
    const inv = await post(owner, `/api/Operator/${A}/Invites`, { Contact: later.phone, Role: 'officer' });
    const pending = (await get(owner, `/api/Operator/${A}/Invites`)).json<{ InviteId: number }[]>();
    expect(pending.map((p) => p.InviteId)).toContain(inv.json<{ InviteId: number }>().InviteId);
    const id = inv.json<{ InviteId: number }>().InviteId;
    expectRefused(await post(ownerB, `/api/Operator/${B}/Invites/${id}/Withdraw`), 404, undefined, M.inviteNotFound);
    expect((await post(owner, `/api/Operator/${A}/Invites/${id}/Withdraw`)).statusCode).toBe(200);
    expectRefused(await post(owner, `/api/Operator/${A}/Invites/${id}/Withdraw`), 404);
    expectRefused(
      await post(later, '/api/Account/OperatorInvite', { Code: await lastInviteCode(app, later.phone) }),
      400,
    );
    expect(await auditActions()).toContain('invite.revoke');
  });

  it('wrong codes: five end the invitation', async () => {
    const invitee = await registerAndSignIn(app);
    await post(owner, `/api/Operator/${A}/Invites`, { Contact: invitee.phone, Role: 'officer' });
    const code = await lastInviteCode(app, invitee.phone);
    const wrong = code === '00000000' ? '11111111' : '00000000';
    for (let i = 0; i < 5; i++) expectRefused(await post(invitee, '/api/Account/OperatorInvite', { Code: wrong }), 400);
    expectRefused(await post(invitee, '/api/Account/OperatorInvite', { Code: code }), 400, 'Code', M.inviteInvalid);
  });

  it('refuses bad input with the field and changes nothing', async () => {
    const before = await tableChecksums(db);
    const url = `/api/Operator/${A}/Invites`;
    expectRefused(await post(owner, url, { Role: 'manager' }), 400, 'Contact', M.contactRequired);
    expectRefused(await post(owner, url, { Contact: '12345', Role: 'manager' }), 400, 'Contact', M.contactInvalid);
    expectRefused(await post(owner, url, { Contact: 'a@b', Role: 'manager' }), 400, 'Contact', M.contactInvalid);
    expectRefused(await post(owner, url, { Contact: '5125550100', Role: 'king' }), 400, 'Role', M.roleInvalid);
    expectRefused(
      await post(owner, url, { Contact: `${'x'.repeat(300)}@example.com`, Role: 'manager' }),
      400,
      'Contact',
    );
    expectRefused(
      await post(owner, url, { Contact: "5125550100'; drop table operator_staff;--", Role: 'manager' }),
      400,
    );
    expectRefused(await post(owner, url, { Contact: ['5125550100'], Role: 'manager' }), 400, 'Contact');
    const invitee = await registerAndSignIn(app);
    const beforeAccept = await tableChecksums(db);
    expectRefused(await post(invitee, '/api/Account/OperatorInvite', {}), 400, 'Code', M.inviteCodeRequired);
    expectRefused(
      await post(invitee, '/api/Account/OperatorInvite', { Code: '1234' }),
      400,
      'Code',
      M.inviteCodeFormat,
    );
    expectRefused(await post(invitee, '/api/Account/OperatorInvite', { Code: 12345678 }), 400, 'Code');
    expect(Object.keys(await tableChecksums(db))).toEqual(Object.keys(before));
    expect(await tableChecksums(db)).toEqual(beforeAccept);
  });

  it('someone already on the team is not invited again (409)', async () => {
    const who = await staffMember(app, db, A, 'analyst');
    expectRefused(
      await post(owner, `/api/Operator/${A}/Invites`, { Contact: who.phone, Role: 'manager' }),
      409,
      'Contact',
      M.alreadyStaff,
    );
  });

  it('the same code accepted twice at once joins once', async () => {
    const invitee = await registerAndSignIn(app);
    await post(owner, `/api/Operator/${A}/Invites`, { Contact: invitee.phone, Role: 'analyst' });
    const code = await lastInviteCode(app, invitee.phone);
    const results = await concurrently(6, () => post(invitee, '/api/Account/OperatorInvite', { Code: code }));
    expect(statusCounts(results)).toEqual({ 200: 1, 400: 5 });
    const joins = (await get(owner, `/api/Operator/${A}/Audit?limit=100`))
      .json<AuditPage>()
      .Entries.filter((e) => e.Action === 'staff.join' && e.ActorId === invitee.memberId);
    expect(joins).toHaveLength(1);
  });
});

describe('roles and removal', () => {
  it('the owner changes a role and removes a person; each is audited with before and after', async () => {
    const who = await staffMember(app, db, A, 'analyst');
    expect((await post(owner, `/api/Operator/${A}/Staff/${who.memberId}/Role`, { Role: 'manager' })).statusCode).toBe(
      200,
    );
    expect((await staffList(A)).find((s) => s.MemberId === who.memberId)?.Role).toBe('manager');
    const [role] = (await get(owner, `/api/Operator/${A}/Audit?limit=1`)).json<AuditPage>().Entries;
    expect(role).toMatchObject({
      Action: 'staff.role',
      Entity: 'staff',
      EntityId: String(who.memberId),
      ActorId: owner.memberId,
    });
    expect(role!.Before).toMatchObject({ Role: 'analyst' });
    expect(role!.After).toMatchObject({ Role: 'manager' });

    expect((await post(owner, `/api/Operator/${A}/Staff/${who.memberId}/Remove`)).statusCode).toBe(200);
    expect((await staffList(A)).map((s) => s.MemberId)).not.toContain(who.memberId);
    // Removed: the next request is refused at once.
    expectRefused(await get(who, `/api/Operator/${A}/Staff`), 403);
    expect(await auditActions()).toContain('staff.remove');
    expectRefused(
      await post(owner, `/api/Operator/${A}/Staff/${who.memberId}/Remove`),
      404,
      undefined,
      M.personNotFound,
    );
  });

  it('never the last owner: neither removed nor demoted', async () => {
    const solo = await newOperator(db);
    const soloOwner = await signedInOwner(app, db, solo);
    const url = `/api/Operator/${solo}/Staff/${soloOwner.memberId}`;
    expectRefused(await post(soloOwner, `${url}/Remove`), 409, undefined, M.lastOwner);
    expectRefused(await post(soloOwner, `${url}/Role`, { Role: 'manager' }), 409, 'Role', M.lastOwner);
    expect((await staffList(solo, soloOwner)).map((s) => s.Role)).toEqual(['owner']);
  });

  it('two owners removing each other at once leave one owner', async () => {
    const op = await newOperator(db);
    const [x, y] = [await signedInOwner(app, db, op), await signedInOwner(app, db, op)];
    const results = await concurrently(2, (i) => {
      const [me, other] = i === 0 ? [x, y] : [y, x];
      return post(me, `/api/Operator/${op}/Staff/${other.memberId}/Remove`);
    });
    const counts = statusCounts(results);
    // One removal wins; the other is refused: the remover is gone (403) or was the last owner (409).
    expect(counts[200]).toBe(1);
    const owners = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from operator_staff where operator_id = ${op} and role = 'owner'`,
    );
    expect(owners[0]!.n).toBe(1);
  });

  it('many role changes at once leave an owner', async () => {
    const op = await newOperator(db);
    const owners = [
      await signedInOwner(app, db, op),
      await signedInOwner(app, db, op),
      await signedInOwner(app, db, op),
    ];
    await concurrently(3, (i) =>
      post(owners[i]!, `/api/Operator/${op}/Staff/${owners[i]!.memberId}/Role`, { Role: 'analyst' }),
    );
    const rows = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from operator_staff where operator_id = ${op} and role = 'owner'`,
    );
    expect(rows[0]!.n).toBe(1);
  });
});

describe('the audit log', () => {
  it('is scoped by operator and paged newest first', async () => {
    const bActions = await auditActions(ownerB, B);
    const aPage = (await get(owner, `/api/Operator/${A}/Audit?limit=2`)).json<AuditPage>();
    expect(aPage.Entries).toHaveLength(2);
    expect(aPage.Entries[0]!.Id).toBeGreaterThan(aPage.Entries[1]!.Id);
    const next = (await get(owner, `/api/Operator/${A}/Audit?limit=2&before=${aPage.Next}`)).json<AuditPage>();
    expect(next.Entries[0]!.Id).toBeLessThan(aPage.Entries[1]!.Id);
    // B's log holds only B's own entries (its owner's creation).
    expect(bActions).toEqual(['staff.join']);
    expectRefused(await get(owner, `/api/Operator/${A}/Audit?limit=0`), 400, 'limit');
  });

  it('is never changed: the database refuses UPDATE, DELETE and TRUNCATE', async () => {
    for (const statement of [
      sql`update audit_log set actor_name = 'someone else'`,
      sql`delete from audit_log`,
      sql`truncate audit_log`,
    ])
      await expect(db.execute(statement)).rejects.toThrow();
    const rows = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from audit_log where actor_name = 'someone else'`,
    );
    expect(rows[0]!.n).toBe(0);
  });
});

import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Permit, PermitType } from '@parkit/contract';
import { auditLog, ledgerEntries, members, permits, zones } from '../../../src/db/schema/index.ts';
import { rightToPark } from '../../../src/enforcement/index.ts';
import { as, registerAndSignIn } from '../../helpers.ts';
import { concurrently, statusCounts } from '../../concurrency.ts';
import { twoOperators } from '../../operator-helpers.ts';
import { addZone, credit } from '../../parking-helpers.ts';
import { EXE, multipart, PDF, PNG } from '../../support-helpers.ts';
import { addZones, zoneAt } from '../../support/history-fixtures.ts';

// Permits (docs/permits.md): types in the console, applications, payment, visitor days,
// and the rights they give (enforcement/rights.ts). Runs on PGlite and on PostgreSQL.
const { app, db, A, B, owner, ownerB, staff } = await twoOperators('Permit city B', ['manager', 'analyst', 'officer']);
const zone = await addZone(db, 'PRM1');
const zone2 = await addZone(db, 'PRM2');
await addZones(db, B, [zoneAt('PRMB', '1 B St', { lat: 32.78, lng: -96.8 })]);
const [{ id: zoneOfB }] = (await db.select({ id: zones.id }).from(zones).where(eq(zones.operatorId, B))) as [
  { id: number },
];
const driver = await registerAndSignIn(app);

const typeBody = (over: object = {}) => ({
  Kind: 'resident',
  Name: 'Residents north',
  ZoneIds: [zone],
  ValidMonths: 12,
  PriceCents: 2500,
  ProofRequired: true,
  MaxPlates: 2,
  VisitorDaysPerMonth: 3,
  ...over,
});
const makeType = async (over: object = {}) => {
  const res = await as(app, staff.manager, {
    method: 'POST',
    url: `/api/Operator/${A}/PermitTypes`,
    payload: typeBody(over),
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<PermitType>();
};
const uploadProof = async (file: Buffer, name: string) => {
  const m = multipart(file, name);
  return as(app, driver, { method: 'POST', url: '/api/Permits/Proof', payload: m.payload, headers: m.headers });
};
const applyFor = (payload: object, who = driver) =>
  as(app, who, { method: 'POST', url: '/api/Permits/Apply', payload });
const decide = (permitId: number, what: 'Approve' | 'Refuse', payload?: object, who = staff.manager) =>
  as(app, who, {
    method: 'POST',
    url: `/api/Operator/${A}/Permits/${permitId}/${what}`,
    ...(payload ? { payload } : {}),
  });
const pay = (permitId: number, key: string, who = driver) =>
  as(app, who, { method: 'POST', url: `/api/Permits/${permitId}/Pay`, headers: { 'idempotency-key': key } });

describe('permit types in the console', () => {
  it('a manager and an owner create and change types; each change is audited', async () => {
    const t = await makeType();
    expect(t).toMatchObject({ Kind: 'resident', ZoneIds: [zone], PriceCents: 2500, Retired: false });
    const put = await as(app, owner, {
      method: 'PUT',
      url: `/api/Operator/${A}/PermitTypes/${t.Id}`,
      payload: typeBody({ Name: 'Residents north and south', ZoneIds: [zone, zone2] }),
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json<PermitType>().ZoneIds).toEqual([zone, zone2].sort((a, b) => a - b));
    const entries = await db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'permit-type'), eq(auditLog.entityId, String(t.Id))));
    expect(entries.map((e) => e.action).sort()).toEqual(['permit-type.create', 'permit-type.update']);
  });

  it('an analyst reads but never changes; an officer sees nothing', async () => {
    expect((await as(app, staff.analyst, { method: 'GET', url: `/api/Operator/${A}/PermitTypes` })).statusCode).toBe(
      200,
    );
    const write = await as(app, staff.analyst, {
      method: 'POST',
      url: `/api/Operator/${A}/PermitTypes`,
      payload: typeBody(),
    });
    expect(write.statusCode).toBe(403);
    expect((await as(app, staff.officer, { method: 'GET', url: `/api/Operator/${A}/PermitTypes` })).statusCode).toBe(
      403,
    );
    expect((await as(app, staff.officer, { method: 'GET', url: `/api/Operator/${A}/Permits` })).statusCode).toBe(403);
  });

  it('refuses bad input and another operator’s zones and types (404), changing nothing', async () => {
    for (const bad of [
      { Kind: 'parking' },
      { ZoneIds: [] },
      { ValidMonths: 0 },
      { PriceCents: -1 },
      { PriceCents: 1.5 },
      { MaxPlates: 11 },
      { Kind: 'ev', VisitorDaysPerMonth: 2 },
      { Name: '<script>'.repeat(20) },
    ]) {
      const res = await as(app, staff.manager, {
        method: 'POST',
        url: `/api/Operator/${A}/PermitTypes`,
        payload: typeBody(bad),
      });
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
    }
    const foreignZone = await as(app, staff.manager, {
      method: 'POST',
      url: `/api/Operator/${A}/PermitTypes`,
      payload: typeBody({ ZoneIds: [zoneOfB] }),
    });
    expect(foreignZone.statusCode).toBe(400);
    const typeOfB = (
      await as(app, ownerB, {
        method: 'POST',
        url: `/api/Operator/${B}/PermitTypes`,
        payload: typeBody({ ZoneIds: [zoneOfB] }),
      })
    ).json<PermitType>();
    const put = await as(app, staff.manager, {
      method: 'PUT',
      url: `/api/Operator/${A}/PermitTypes/${typeOfB.Id}`,
      payload: typeBody(),
    });
    expect(put.statusCode).toBe(404);
    const retire = await as(app, staff.manager, {
      method: 'POST',
      url: `/api/Operator/${A}/PermitTypes/${typeOfB.Id}/Retire`,
    });
    expect(retire.statusCode).toBe(404);
    expect((await as(app, staff.manager, { method: 'GET', url: `/api/Operator/${B}/PermitTypes` })).statusCode).toBe(
      404,
    );
  });
});

describe('applying, reviewing and paying', () => {
  it('checks the proof by its content: PDF and PNG pass, an executable named .pdf does not', async () => {
    expect((await uploadProof(PDF, 'lease.pdf')).statusCode).toBe(201);
    expect((await uploadProof(PNG, 'bill.png')).statusCode).toBe(201);
    const exe = await uploadProof(EXE, 'lease.pdf');
    expect(exe.statusCode).toBe(415);
  });

  it('a resident applies with a PDF proof, a manager approves, the driver pays from the wallet; the plate check sees the permit', async () => {
    const t = await makeType({ Name: 'Flow residents' });
    const types = await as(app, driver, { method: 'GET', url: `/api/Permits/Types?zoneId=${zone}` });
    expect(types.json<PermitType[]>().map((x) => x.Id)).toContain(t.Id);
    expect((await applyFor({ TypeId: t.Id, Plates: ['RES 1'] })).statusCode).toBe(400); // proof required
    const proof = (await uploadProof(PDF, 'lease.pdf')).json<{ AttachmentId: string }>().AttachmentId;
    const applied = await applyFor({ TypeId: t.Id, Plates: ['res-1', 'RES 2'], ProofAttachmentId: proof });
    expect(applied.statusCode, applied.body).toBe(201);
    const permit = applied.json<Permit>();
    expect(permit).toMatchObject({ Status: 'pending', Plates: ['RES1', 'RES2'], ZoneIds: [zone] });

    const proofRes = await as(app, staff.analyst, {
      method: 'GET',
      url: `/api/Operator/${A}/Permits/${permit.Id}/Proof`,
    });
    expect(proofRes.statusCode).toBe(200);
    expect(proofRes.headers['content-type']).toBe('application/pdf');
    expect((await decide(permit.Id, 'Approve', undefined, staff.analyst)).statusCode).toBe(403);
    expect((await pay(permit.Id, 'pay-too-early')).statusCode).toBe(409);

    const approved = await decide(permit.Id, 'Approve');
    expect(approved.json<Permit>().Status).toBe('approved');
    expect((await decide(permit.Id, 'Refuse', { Reason: 'late' })).statusCode).toBe(409);

    expect((await pay(permit.Id, 'pay-poor')).statusCode).toBe(402);
    await credit(db, driver.memberId, 3000);
    const paid = await pay(permit.Id, 'pay-1');
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json<Permit>().Status).toBe('active');
    const again = await pay(permit.Id, 'pay-1');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await pay(permit.Id, 'pay-2')).statusCode).toBe(409);
    const [m] = await db.select({ b: members.balanceCents }).from(members).where(eq(members.id, driver.memberId));
    expect(m!.b).toBe(500);

    const right = await rightToPark(db, { zoneId: zone, plate: 'res 2', at: new Date() });
    expect(right).toMatchObject({ kind: 'permit', id: String(permit.Id) });
    expect(await rightToPark(db, { zoneId: zone2, plate: 'RES2', at: new Date() })).toBeNull();
    expect(
      await rightToPark(db, { zoneId: zone, plate: 'RES2', at: new Date(Date.now() + 400 * 86_400_000) }),
    ).toBeNull();
    const mine = await as(app, driver, { method: 'GET', url: '/api/Permits/List' });
    expect(mine.json<Permit[]>().find((p) => p.Id === permit.Id)?.Status).toBe('active');
  });

  it('a refusal carries its reason; bad and hostile applications are refused', async () => {
    const t = await makeType({ Name: 'Refused residents', ProofRequired: false, MaxPlates: 1 });
    const p = (await applyFor({ TypeId: t.Id, Plates: ['NOPE 1'] })).json<Permit>();
    expect((await decide(p.Id, 'Refuse', { Reason: '' })).statusCode).toBe(400);
    const refused = await decide(p.Id, 'Refuse', { Reason: 'Address outside the area' });
    expect(refused.json<Permit>()).toMatchObject({ Status: 'refused', RefusalReason: 'Address outside the area' });
    expect((await applyFor({ TypeId: t.Id, Plates: ['A 1', 'B 2'] })).statusCode).toBe(400);
    expect((await applyFor({ TypeId: t.Id, Plates: ["'; drop table permits; --"] })).statusCode).toBe(400);
    expect((await applyFor({ TypeId: t.Id, Plates: ['A1'], ZoneIds: [zone2] })).statusCode).toBe(400);
    expect((await applyFor({ TypeId: 999999, Plates: ['A1'] })).statusCode).toBe(404);
    const other = await registerAndSignIn(app);
    const othersProof = multipart(PDF, 'x.pdf');
    const op = (
      await as(app, other, {
        method: 'POST',
        url: '/api/Permits/Proof',
        payload: othersProof.payload,
        headers: othersProof.headers,
      })
    ).json<{ AttachmentId: string }>().AttachmentId;
    expect((await applyFor({ TypeId: t.Id, Plates: ['A1'], ProofAttachmentId: op })).statusCode).toBe(404);
    expect((await decide(p.Id, 'Approve', undefined, ownerB)).statusCode).toBe(404);
  });

  it('a free permit is active on approval; another operator cannot decide it (404)', async () => {
    const t = await makeType({
      Kind: 'disabled',
      Name: 'Blue badge',
      PriceCents: 0,
      ProofRequired: false,
      VisitorDaysPerMonth: 0,
    });
    const p = (await applyFor({ TypeId: t.Id, Plates: ['BADGE 1'] })).json<Permit>();
    const asB = await as(app, ownerB, { method: 'POST', url: `/api/Operator/${B}/Permits/${p.Id}/Approve` });
    expect(asB.statusCode).toBe(404);
    expect((await decide(p.Id, 'Approve')).json<Permit>().Status).toBe('active');
  });

  it('concurrent payments with different keys debit once, and the ledger equals the balance', async () => {
    const payer = await registerAndSignIn(app);
    const t = await makeType({
      Kind: 'business',
      Name: 'Business',
      ProofRequired: false,
      VisitorDaysPerMonth: 0,
      PriceCents: 1000,
    });
    const p = (await applyFor({ TypeId: t.Id, Plates: ['BIZ 1'] }, payer)).json<Permit>();
    await decide(p.Id, 'Approve');
    await credit(db, payer.memberId, 5000);
    const res = await concurrently(8, (i) => pay(p.Id, `race-${i}`, payer));
    expect(statusCounts(res)[200]).toBe(1);
    const entries = await db.select().from(ledgerEntries).where(eq(ledgerEntries.memberId, payer.memberId));
    const [m] = await db.select({ b: members.balanceCents }).from(members).where(eq(members.id, payer.memberId));
    expect(entries.reduce((s, e) => s + e.amountCents, 0)).toBe(m!.b);
    expect(m!.b).toBe(4000);
  });
});

describe('visitor days', () => {
  it('gives exactly N a month under concurrent gives, and the check names the day', async () => {
    const t = await makeType({ Name: 'Visitors', ProofRequired: false, PriceCents: 0, VisitorDaysPerMonth: 3 });
    const p = (await applyFor({ TypeId: t.Id, Plates: ['HOME 1'] })).json<Permit>();
    expect((await decide(p.Id, 'Approve')).json<Permit>().Status).toBe('active');
    const [row] = await db.select().from(permits).where(eq(permits.id, p.Id));
    // The operator's local date of tomorrow keeps the day inside the permit's window.
    const day = new Date(row!.validFrom!.getTime() + 86_400_000).toISOString().slice(0, 10);
    const res = await concurrently(10, (i) =>
      as(app, driver, {
        method: 'POST',
        url: `/api/Permits/${p.Id}/VisitorDays`,
        payload: { Plate: `GUEST ${i}`, Date: day },
      }),
    );
    expect(statusCounts(res)).toEqual({ 201: 3, 409: 7 });
    const given = res.find((r) => r.statusCode === 201)!.json<{ Id: number; Plate: string }>();
    const noon = new Date(`${day}T18:00:00Z`);
    expect(await rightToPark(db, { zoneId: zone, plate: given.Plate, at: noon })).toMatchObject({
      kind: 'visitor-day',
      id: String(given.Id),
    });
    const list = await as(app, driver, { method: 'GET', url: `/api/Permits/${p.Id}/VisitorDays` });
    expect(list.json<unknown[]>()).toHaveLength(3);
    const bad = await as(app, driver, {
      method: 'POST',
      url: `/api/Permits/${p.Id}/VisitorDays`,
      payload: { Plate: 'X1', Date: '2026-02-30' },
    });
    expect(bad.statusCode).toBe(400);
    const other = await registerAndSignIn(app);
    const stolen = await as(app, other, {
      method: 'POST',
      url: `/api/Permits/${p.Id}/VisitorDays`,
      payload: { Plate: 'X1', Date: day },
    });
    expect(stolen.statusCode).toBe(404);
  });
});

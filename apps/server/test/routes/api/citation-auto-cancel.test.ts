// A citation issued despite a right, a right found only later (a session amended or synced late, a
// visitor day given for today), is cancelled automatically: refunded through the ledger, audited,
// the driver told; once, also when the job runs twice while the driver pays (both databases).
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Citation, Permit, PermitType } from '@parkit/contract';
import { cancelCoveredCitations, registerCitationJobs } from '../../../src/citations/index.ts';
import { createJobRunner } from '../../../src/infra/jobs/job-runner.ts';
import { queryRows } from '../../../src/db/client.ts';
import { concurrently, count } from '../../concurrency.ts';
import { createViolation, issueCitation, staffPost } from '../../citation-helpers.ts';
import { as, registerAndSignIn, type SignedIn } from '../../helpers.ts';
import { twoOperators } from '../../operator-helpers.ts';
import { addVehicle, addZone, credit, startSession, walletState } from '../../parking-helpers.ts';
import { walletContext } from '../../wallet/helpers.ts';

const {
  app,
  db,
  A,
  staff: { manager, officer },
} = await twoOperators('Other Auto Cancel Parking', ['manager', 'officer']);
const zoneId = await addZone(db, 'AC1');
const wallet = walletContext(db);

let plates = 0;
const newPlate = () => `AC${process.pid % 100}X${++plates}`;
const post = staffPost(app);

const v = await createViolation(app, manager, A, 'AC');

const cited = (plate: string): Promise<Citation> =>
  issueCitation(app, officer, A, { zoneId, plate, violationId: v.ViolationId, location: 'Outside 3 Lamar Blvd' });

async function driverWithPlate(cents = 10_000) {
  const driver = await registerAndSignIn(app);
  await credit(db, driver.memberId, cents);
  const plate = newPlate();
  const vehicleId = await addVehicle(app, driver, plate);
  return { driver, plate, vehicleId };
}

/** The session becomes known as having covered the citation's moment (an amend, a late sync). */
async function sessionCovering(c: Citation, driver: SignedIn, vehicleId: number, ended = false) {
  const s = await startSession(app, driver, { zoneId, vehicleId, minutes: 60 });
  await db.execute(sql`update parking_sessions
    set started_at = ${c.IssuedAt}::timestamptz - interval '10 minutes',
        ends_at = ${c.IssuedAt}::timestamptz + interval '50 minutes'
        ${ended ? sql`, status = 'ended', ended_at = ${c.IssuedAt}::timestamptz + interval '50 minutes'` : sql``}
    where id = ${s.SessionId}`);
  return s;
}

const statusOf = async (id: number) =>
  (await queryRows<{ status: string }>(db, sql`select status from citations where id = ${id}`))[0]?.status;
const autoCancels = (id: number) =>
  count(
    db,
    sql`select count(*) as n from audit_log where entity = 'citation' and entity_id = ${String(id)} and action = 'citation.auto-cancel'`,
  );

describe('a right found after the citation', () => {
  it('cancels an unpaid citation that an ended session covered, tells the driver; an uncovered one stands', async () => {
    const { driver, plate, vehicleId } = await driverWithPlate();
    const c = await cited(plate);
    const other = await cited(newPlate());
    expect(await cancelCoveredCitations(wallet, new Date())).toBe(0);
    await sessionCovering(c, driver, vehicleId, true);
    expect(await cancelCoveredCitations(wallet, new Date())).toBe(1);
    expect(await statusOf(c.CitationId)).toBe('cancelled');
    expect(await statusOf(other.CitationId)).toBe('issued');
    expect(await autoCancels(c.CitationId)).toBe(1);
    const sms = await queryRows<{ body: string }>(
      db,
      sql`select body from outbox where recipient = ${driver.phone} order by id desc limit 1`,
    );
    expect(sms[0]?.body).toContain(`citation ${c.CitationId}`);
    expect(sms[0]?.body).toContain('right to park');
    const mine = (await as(app, driver, { method: 'GET', url: `/api/Citations/${c.CitationId}` })).json<Citation>();
    expect(mine).toMatchObject({ Status: 'cancelled', AmountDue: 0 });
    // Idempotent: a second pass finds nothing to do.
    expect(await cancelCoveredCitations(wallet, new Date())).toBe(0);
    expect(await autoCancels(c.CitationId)).toBe(1);
  });

  it('refunds a paid citation through the ledger; a contest waiting is closed; a decided one is left alone', async () => {
    const { driver, plate, vehicleId } = await driverWithPlate(5_000);
    const paid = await cited(plate);
    const contested = await cited(plate);
    const decided = await cited(plate);
    const r = await post(driver, `/api/Citations/${paid.CitationId}/Pay`, {}, { 'idempotency-key': randomUUID() });
    expect(r.statusCode, r.body).toBe(200);
    await post(driver, `/api/Citations/${contested.CitationId}/Contest`, { Reason: 'I had paid' });
    await post(driver, `/api/Citations/${decided.CitationId}/Contest`, { Reason: 'No' });
    const up = await post(manager, `/api/Operator/${A}/Citations/${decided.CitationId}/Decide`, {
      Decision: 'upheld',
    });
    expect(up.statusCode, up.body).toBe(200);
    await sessionCovering(paid, driver, vehicleId);
    expect(await cancelCoveredCitations(wallet, new Date(), { plates: [plate.toLowerCase()] })).toBe(2);
    expect(await statusOf(paid.CitationId)).toBe('cancelled');
    expect(await statusOf(contested.CitationId)).toBe('cancelled');
    expect(await statusOf(decided.CitationId)).toBe('upheld');
    const w = await walletState(db, driver.memberId);
    expect(w.ledger).toBe(w.balance);
    expect(w.balance).toBe(5_000 - (await sessionCost(plate)));
    const view = (
      await as(app, driver, { method: 'GET', url: `/api/Citations/${contested.CitationId}` })
    ).json<Citation>();
    expect(view.Contest).toMatchObject({ Decision: 'cancelled', DecidedBy: null });
  });

  it('race: the job twice at once while the driver pays: cancelled once, exactly what was paid refunded', async () => {
    for (let round = 0; round < 3; round++) {
      const { driver, plate, vehicleId } = await driverWithPlate(5_000);
      const c = await cited(plate);
      await sessionCovering(c, driver, vehicleId, true);
      const before = (await walletState(db, driver.memberId)).balance;
      const now = new Date();
      const [pay] = await concurrently(3, (i) =>
        i === 0
          ? post(driver, `/api/Citations/${c.CitationId}/Pay`, {}, { 'idempotency-key': randomUUID() }).then(
              (x) => x.statusCode,
            )
          : cancelCoveredCitations(wallet, now, { plates: [plate] }),
      );
      expect([200, 409]).toContain(pay);
      expect(await statusOf(c.CitationId)).toBe('cancelled');
      expect(await autoCancels(c.CitationId)).toBe(1);
      const [row] = await queryRows<{ paid: number; refunded: number }>(
        db,
        sql`select paid_cents as paid, refunded_cents as refunded from citations where id = ${c.CitationId}`,
      );
      expect(Number(row!.refunded)).toBe(Number(row!.paid));
      expect(Number(row!.paid)).toBe(pay === 200 ? 2_500 : 0);
      const w = await walletState(db, driver.memberId);
      expect(w.ledger).toBe(w.balance);
      expect(w.balance).toBe(before);
    }
  });

  it('a visitor day given for today cancels a citation issued today at once', async () => {
    const resident = await registerAndSignIn(app);
    const tRes = await post(manager, `/api/Operator/${A}/PermitTypes`, {
      Kind: 'resident',
      Name: 'Residents AC',
      ZoneIds: [zoneId],
      ValidMonths: 12,
      PriceCents: 0,
      ProofRequired: false,
      MaxPlates: 1,
      VisitorDaysPerMonth: 3,
    });
    expect(tRes.statusCode, tRes.body).toBe(201);
    const p = (
      await post(resident, '/api/Permits/Apply', { TypeId: tRes.json<PermitType>().Id, Plates: [newPlate()] })
    ).json<Permit>();
    expect((await post(manager, `/api/Operator/${A}/Permits/${p.Id}/Approve`, {})).json<Permit>().Status).toBe(
      'active',
    );
    const { driver, plate } = await driverWithPlate();
    const c = await cited(plate);
    const [today] = await queryRows<{ d: string }>(
      db,
      sql`select (now() at time zone timezone)::date::text as d from operators where id = ${A}`,
    );
    const given = await post(resident, `/api/Permits/${p.Id}/VisitorDays`, { Plate: plate, Date: today!.d });
    expect(given.statusCode, given.body).toBe(201);
    expect(await statusOf(c.CitationId)).toBe('cancelled');
    const mine = (await as(app, driver, { method: 'GET', url: '/api/Citations/List' })).json<Citation[]>();
    expect(mine.find((x) => x.CitationId === c.CitationId)?.Status).toBe('cancelled');
  });

  it('runs as the job citations.auto-cancel on the one runner', async () => {
    const runner = createJobRunner(db, { error: (o: unknown) => console.error(o) });
    registerCitationJobs(runner, wallet);
    const done = await runner.runOnce(new Date());
    expect(Object.keys(done)).toEqual(['citations.late-fees', 'citations.auto-cancel']);
  });
});

/** What the driver paid for sessions of the plate (the session's own ledger entries). */
async function sessionCost(plate: string): Promise<number> {
  const [r] = await queryRows<{ n: number }>(
    db,
    sql`select coalesce(sum(parking_cents + fee_cents - refunded_cents), 0)::int as n from parking_sessions where plate = ${plate}`,
  );
  return Number(r?.n ?? 0);
}

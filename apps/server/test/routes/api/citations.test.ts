// Citations: an operator's violations, an officer's citation (refused when a right to
// park covers the plate, also against a racing Start), a manager's decision on a contest (refund
// through the ledger), the driver's list, evidence, payment (Idempotency-Key) and contest, the
// late-fee job; another operator's ids are 404.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { CITATION_MESSAGES as M, type Citation, type CitationFile, type Quote, type Violation } from '@parkit/contract';
import { applyLateFees } from '../../../src/citations/index.ts';
import { queryRows } from '../../../src/db/client.ts';
import { concurrently, count, expectJsonNo5xx, statusCounts } from '../../concurrency.ts';
import { staffPost } from '../../citation-helpers.ts';
import { as, registerAndSignIn, type SignedIn } from '../../helpers.ts';
import { twoOperators } from '../../operator-helpers.ts';
import { addVehicle, addZone, credit, pay, quote, startSession, walletState } from '../../parking-helpers.ts';
import { EXE, multipart, PNG } from '../../support-helpers.ts';

const {
  app,
  database,
  db,
  A,
  B,
  owner,
  ownerB,
  staff: { manager, officer, analyst },
} = await twoOperators('Other Citations Parking', ['manager', 'officer', 'analyst']);
const zoneId = await addZone(db, 'CT1');

let plates = 0;
const newPlate = () => `CT${process.pid % 100}X${++plates}`;

const post = staffPost(app);
const get = (who: SignedIn, url: string) => as(app, who, { method: 'GET', url });

async function violation(fine = '25.00', lateFee = '10.00'): Promise<Violation> {
  const res = await post(manager, `/api/Operator/${A}/Violations`, {
    Code: `V${randomUUID().slice(0, 6)}`,
    Description: 'Parked without paying',
    Fine: fine,
    DueDays: 14,
    LateFee: lateFee,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Violation>();
}

async function photo(who: SignedIn = officer, operatorId = A): Promise<string> {
  const body = multipart(PNG, 'car.png', { type: 'image/png' });
  const res = await as(app, who, { method: 'POST', url: `/api/Operator/${operatorId}/Citations/Photos`, ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<CitationFile>().FileId;
}

const cite = async (plate: string, violationId: number, who: SignedIn = officer, photos?: string[]) =>
  post(who, `/api/Operator/${A}/Citations`, {
    ZoneId: zoneId,
    PlateNumber: plate,
    PlateState: 'TX',
    ViolationId: violationId,
    Location: 'Outside 12 Congress Ave',
    PhotoIds: photos ?? [await photo(who)],
  });

/** A driver with a vehicle of a fresh plate and money in the wallet. */
async function driverWithPlate(cents = 10_000) {
  const driver = await registerAndSignIn(app);
  await credit(db, driver.memberId, cents);
  const plate = newPlate();
  const vehicleId = await addVehicle(app, driver, plate);
  return { driver, plate, vehicleId };
}

async function cited(plate: string, v?: Violation): Promise<Citation> {
  const res = await cite(plate, (v ?? (await violation())).ViolationId);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<Citation>();
}

describe('violations', () => {
  it('a manager adds, changes and retires one; a code is once per operator; an analyst and an officer cannot change', async () => {
    const v = await violation('30.00', '5');
    expect(v).toMatchObject({ Fine: 30, LateFee: 5, DueDays: 14, Retired: false });
    const again = await post(manager, `/api/Operator/${A}/Violations`, {
      Code: v.Code.toLowerCase(),
      Description: 'x',
      Fine: 1,
      DueDays: 1,
    });
    expect(again.statusCode).toBe(409);
    const changed = await post(manager, `/api/Operator/${A}/Violations/${v.ViolationId}`, {
      Code: v.Code,
      Description: 'Expired meter',
      Fine: '40',
      DueDays: 7,
      LateFee: 0,
    });
    expect(changed.json<Violation>()).toMatchObject({ Description: 'Expired meter', Fine: 40, DueDays: 7 });
    for (const who of [analyst, officer])
      expect(
        (await post(who, `/api/Operator/${A}/Violations`, { Code: 'NO', Description: 'x', Fine: 1, DueDays: 1 }))
          .statusCode,
      ).toBe(403);
    const bad = await post(manager, `/api/Operator/${A}/Violations`, {
      Code: '',
      Description: '',
      Fine: '-1',
      DueDays: 0,
    });
    expect(bad.statusCode).toBe(400);
    const retired = await post(manager, `/api/Operator/${A}/Violations/${v.ViolationId}/Retire`, {});
    expect(retired.json<Violation>().Retired).toBe(true);
    const list = (await get(analyst, `/api/Operator/${A}/Violations`)).json<Violation[]>();
    expect(list.find((x) => x.ViolationId === v.ViolationId)?.Retired).toBe(true);
    // A retired violation cites no one.
    expect((await cite(newPlate(), v.ViolationId)).statusCode).toBe(404);
    const audit = await count(
      db,
      sql`select count(*) as n from audit_log where operator_id = ${A} and entity = 'violation' and entity_id = ${String(v.ViolationId)}`,
    );
    expect(audit).toBe(3);
  });
});

describe('issuing a citation', () => {
  it('an officer cites an unpaid plate with a photo; the photo is served only through the authorised routes', async () => {
    const { driver, plate } = await driverWithPlate();
    const c = await cited(plate.toLowerCase().replace(/(\d)/, '-$1'));
    expect(c).toMatchObject({ Status: 'issued', Fine: 25, AmountDue: 25, PlateState: 'TX', ZoneNumber: 'CT1' });
    expect(c.PlateNumber).toBe(plate.replace(/[^A-Z0-9]/g, ''));
    expect(c.Files).toHaveLength(1);
    const file = c.Files[0]!.FileId;
    const byOfficer = await get(officer, `/api/Operator/${A}/Citations/${c.CitationId}/Files/${file}`);
    expect(byOfficer.statusCode).toBe(200);
    expect(byOfficer.headers['content-type']).toBe('image/png');
    expect(byOfficer.rawPayload.equals(PNG)).toBe(true);
    const byDriver = await get(driver, `/api/Citations/${c.CitationId}/Files/${file}`);
    expect(byDriver.statusCode).toBe(200);
    const stranger = await registerAndSignIn(app);
    expect((await get(stranger, `/api/Citations/${c.CitationId}/Files/${file}`)).statusCode).toBe(404);
    expect((await get(stranger, `/api/Citations/${c.CitationId}`)).statusCode).toBe(404);
    expect((await get(ownerB, `/api/Operator/${B}/Citations/${c.CitationId}/Files/${file}`)).statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: `/api/Citations/${c.CitationId}/Files/${file}` })).statusCode).toBe(
      401,
    );
  });

  it('needs a photo: none, another officer’s, one already used or a non-image are refused and nothing is written', async () => {
    const v = await violation();
    const before = await count(db, sql`select count(*) as n from citations`);
    const none = await cite(newPlate(), v.ViolationId, officer, []);
    expect(none.statusCode).toBe(400);
    const othersPhoto = await photo(manager);
    expect((await cite(newPlate(), v.ViolationId, officer, [othersPhoto])).statusCode).toBe(409);
    const used = (await cited(newPlate(), v)).Files[0]!.FileId;
    expect((await cite(newPlate(), v.ViolationId, officer, [used])).statusCode).toBe(409);
    const exe = multipart(EXE, 'car.png', { type: 'image/png' });
    expect(
      (await as(app, officer, { method: 'POST', url: `/api/Operator/${A}/Citations/Photos`, ...exe })).statusCode,
    ).toBe(415);
    expect(await count(db, sql`select count(*) as n from citations`)).toBe(before + 1);
    expect((await cite(newPlate(), v.ViolationId, analyst, [await photo()])).statusCode).toBe(403);
  });

  it('is refused (409) while a paid session covers the plate, and allowed once it has ended', async () => {
    const { driver, plate, vehicleId } = await driverWithPlate();
    const v = await violation();
    const s = await startSession(app, driver, { zoneId, vehicleId, minutes: 60 });
    const res = await cite(plate, v.ViolationId);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json<{ message: string }>().message).toBe(M.rightCovers);
    await db.execute(
      sql`update parking_sessions set ends_at = now() - interval '1 minute', started_at = now() - interval '61 minutes' where id = ${s.SessionId}`,
    );
    expect((await cite(plate, v.ViolationId)).statusCode).toBe(201);
  });

  it('another operator’s zone, violation or photo is 404/409, and its console cannot see ours', async () => {
    const v = await violation();
    const c = await cited(newPlate(), v);
    expect((await get(ownerB, `/api/Operator/${B}/Citations/${c.CitationId}`)).statusCode).toBe(404);
    expect(
      (
        await post(ownerB, `/api/Operator/${B}/Violations/${v.ViolationId}`, {
          Code: 'X',
          Description: 'x',
          Fine: 1,
          DueDays: 1,
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await post(ownerB, `/api/Operator/${B}/Citations/${c.CitationId}/Decide`, { Decision: 'upheld' })).statusCode,
    ).toBe(404);
    const bPhoto = await photo(ownerB, B);
    const r = await post(ownerB, `/api/Operator/${B}/Citations`, {
      ZoneId: zoneId,
      PlateNumber: newPlate(),
      PlateState: 'TX',
      ViolationId: v.ViolationId,
      PhotoIds: [bPhoto],
    });
    expect(r.statusCode).toBe(404);
    expect((await get(ownerB, `/api/Operator/${B}/Citations`)).json<Citation[]>()).toEqual([]);
    // A's officer cannot bind B's photo.
    expect((await cite(newPlate(), v.ViolationId, officer, [bPhoto])).statusCode).toBe(409);
  });

  it(
    'race: 20 concurrent citations of a plate while its Start commits: none stands at a moment the session covers',
    { timeout: 60_000 },
    async () => {
      const { driver, plate, vehicleId } = await driverWithPlate();
      const v = await violation();
      const photos = await Promise.all(Array.from({ length: 20 }, () => photo()));
      const q = await quote(app, driver, { ZoneId: zoneId, VehicleId: vehicleId, DurationMinutes: 60 });
      expect(q.statusCode, q.body).toBe(200);
      const quoteId = q.json<Quote>().QuoteId;
      // On PostgreSQL the worst case is forced: the Start reads its clock, then waits (the test holds
      // its quote's row) while the 20 citations run and commit, then goes on. Without the (zone,
      // plate) lock its session would cover citations issued after its start time. PGlite runs one
      // transaction at a time, so there they simply race.
      let release = () => {};
      let held: Promise<unknown> = Promise.resolve();
      if (database.driver === 'postgres') {
        const holding = new Promise<void>((resolve) => {
          held = db.transaction(async (tx) => {
            await tx.execute(sql`select id from parking_quotes where id = ${quoteId}::uuid for update`);
            resolve();
            await new Promise<void>((r) => (release = r));
          });
        });
        await holding;
      }
      const started = pay(app, driver, 'Start', { QuoteId: quoteId });
      await new Promise((r) => setTimeout(r, 200));
      const citing = concurrently(20, (i) => cite(plate, v.ViolationId, officer, [photos[i]!]));
      const cites = database.driver === 'postgres' ? await citing : [];
      release();
      await held;
      const start = await started;
      const responses = [...(database.driver === 'postgres' ? cites : await citing), start];
      expectJsonNo5xx(responses);
      expect(start.statusCode, start.body).toBe(201);
      const counts = statusCounts(responses.slice(0, 20));
      expect((counts[201] ?? 0) + (counts[409] ?? 0)).toBe(20);
      if (database.driver === 'postgres') expect(counts[201]).toBe(20);
      const covered = await queryRows<{ n: number }>(
        db,
        sql`select count(*)::int as n from citations c join parking_sessions s
            on s.zone_id = c.zone_id and upper(regexp_replace(s.plate, '[^A-Za-z0-9]', '', 'g')) = c.plate
            where c.plate = ${plate} and c.issued_at >= s.started_at and c.issued_at < s.ends_at`,
      );
      expect(Number(covered[0]!.n)).toBe(0);
      // After the Start, the plate cannot be cited.
      expect((await cite(plate, v.ViolationId)).statusCode).toBe(409);
    },
  );
});

describe('the driver: list, pay, contest', () => {
  it('lists only the citations of the member’s plates', async () => {
    const { driver, plate } = await driverWithPlate();
    const c = await cited(plate);
    await cited(newPlate());
    const list = (await get(driver, '/api/Citations/List')).json<Citation[]>();
    expect(list.map((x) => x.CitationId)).toEqual([c.CitationId]);
  });

  it('pays from the wallet once under concurrent requests: ledger == balance, the key replays', async () => {
    const { driver, plate } = await driverWithPlate(5_000);
    const c = await cited(plate);
    const key = randomUUID();
    const keys = [key, key, randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    const responses = await concurrently(keys.length, (i) =>
      post(driver, `/api/Citations/${c.CitationId}/Pay`, {}, { 'idempotency-key': keys[i]! }),
    );
    expectJsonNo5xx(responses);
    const ok = responses.filter((r) => r.statusCode === 200);
    expect(ok.length).toBeGreaterThanOrEqual(1);
    expect(ok.filter((r) => r.headers['idempotent-replayed'] !== 'true')).toHaveLength(1);
    const w = await walletState(db, driver.memberId);
    expect(w.ledger).toBe(w.balance);
    expect(w.balance).toBe(5_000 - 2_500);
    expect(w.entries.filter((e) => e.kind === 'citation')).toHaveLength(1);
    const after = (await get(driver, `/api/Citations/${c.CitationId}`)).json<Citation>();
    expect(after).toMatchObject({ Status: 'paid', AmountPaid: 25, AmountDue: 0 });
    expect((await post(driver, `/api/Citations/${c.CitationId}/Pay`, {})).statusCode).toBe(400);
  });

  it('a short wallet is 402 and changes nothing; another member’s citation is 404', async () => {
    const { driver, plate } = await driverWithPlate(100);
    const c = await cited(plate);
    const res = await post(driver, `/api/Citations/${c.CitationId}/Pay`, {}, { 'idempotency-key': randomUUID() });
    expect(res.statusCode).toBe(402);
    expect((await walletState(db, driver.memberId)).balance).toBe(100);
    const other = await registerAndSignIn(app);
    expect(
      (await post(other, `/api/Citations/${c.CitationId}/Pay`, {}, { 'idempotency-key': randomUUID() })).statusCode,
    ).toBe(404);
    expect((await post(other, `/api/Citations/${c.CitationId}/Contest`, { Reason: 'x' })).statusCode).toBe(404);
  });

  it('contests a paid citation with an attachment; the manager cancels it: refunded, audited, the driver told', async () => {
    const { driver, plate } = await driverWithPlate(5_000);
    const c = await cited(plate);
    expect(
      (await post(driver, `/api/Citations/${c.CitationId}/Pay`, {}, { 'idempotency-key': randomUUID() })).statusCode,
    ).toBe(200);
    const up = await as(app, driver, {
      method: 'POST',
      url: '/api/Citations/Attachment',
      ...multipart(PNG, 'receipt.png'),
    });
    expect(up.statusCode, up.body).toBe(201);
    const att = up.json<CitationFile>().FileId;
    const contest = await post(driver, `/api/Citations/${c.CitationId}/Contest`, {
      Reason: 'I had paid',
      AttachmentIds: [att],
    });
    expect(contest.statusCode, contest.body).toBe(200);
    expect(contest.json<Citation>()).toMatchObject({
      Status: 'contested',
      Contest: { Reason: 'I had paid', Decision: null },
    });
    expect((await post(driver, `/api/Citations/${c.CitationId}/Contest`, { Reason: 'again' })).statusCode).toBe(409);
    expect(
      (await post(officer, `/api/Operator/${A}/Citations/${c.CitationId}/Decide`, { Decision: 'cancelled' }))
        .statusCode,
    ).toBe(403);
    const decided = await post(manager, `/api/Operator/${A}/Citations/${c.CitationId}/Decide`, {
      Decision: 'cancelled',
      Note: 'Session found',
    });
    expect(decided.statusCode, decided.body).toBe(200);
    expect(decided.json<Citation>()).toMatchObject({
      Status: 'cancelled',
      Refunded: 25,
      AmountDue: 0,
      Contest: { Decision: 'cancelled' },
    });
    const w = await walletState(db, driver.memberId);
    expect(w.ledger).toBe(w.balance);
    expect(w.balance).toBe(5_000);
    expect(
      (await post(manager, `/api/Operator/${A}/Citations/${c.CitationId}/Decide`, { Decision: 'upheld' })).statusCode,
    ).toBe(409);
    const sms = await queryRows<{ body: string }>(
      db,
      sql`select body from outbox where recipient = ${driver.phone} order by id desc limit 1`,
    );
    expect(sms[0]?.body).toContain(`citation ${c.CitationId}`);
    expect(sms[0]?.body).toContain('cancelled');
    expect(
      await count(
        db,
        sql`select count(*) as n from audit_log where entity = 'citation' and entity_id = ${String(c.CitationId)} and action = 'citation.decide'`,
      ),
    ).toBe(1);
  });

  it('a reduced fine is what the driver pays; an upheld one stands', async () => {
    const { driver, plate } = await driverWithPlate(5_000);
    const c = await cited(plate);
    await post(driver, `/api/Citations/${c.CitationId}/Contest`, { Reason: 'Sign was hidden' });
    const bad = await post(manager, `/api/Operator/${A}/Citations/${c.CitationId}/Decide`, { Decision: 'reduced' });
    expect(bad.statusCode).toBe(400);
    // A decision may refund: without an Idempotency-Key it is refused and changes nothing.
    const keyless = await as(app, manager, {
      method: 'POST',
      url: `/api/Operator/${A}/Citations/${c.CitationId}/Decide`,
      payload: { Decision: 'cancelled' },
    });
    expect(keyless.statusCode).toBe(400);
    expect(keyless.json<{ errors: { field: string }[] }>().errors[0]!.field).toBe('Idempotency-Key');
    expect((await get(driver, `/api/Citations/${c.CitationId}`)).json<Citation>().Status).toBe('contested');
    const more = await post(manager, `/api/Operator/${A}/Citations/${c.CitationId}/Decide`, {
      Decision: 'reduced',
      NewFine: '30',
    });
    expect(more.statusCode).toBe(409);
    const r = await post(manager, `/api/Operator/${A}/Citations/${c.CitationId}/Decide`, {
      Decision: 'reduced',
      NewFine: '10.00',
    });
    expect(r.json<Citation>()).toMatchObject({ Status: 'reduced', Fine: 10, AmountDue: 10 });
    const paid = await post(driver, `/api/Citations/${c.CitationId}/Pay`, {}, { 'idempotency-key': randomUUID() });
    expect(paid.json<{ Amount: number }>().Amount).toBe(10);
    const c2 = await cited(plate);
    await post(driver, `/api/Citations/${c2.CitationId}/Contest`, { Reason: 'No' });
    const up = await post(owner, `/api/Operator/${A}/Citations/${c2.CitationId}/Decide`, { Decision: 'upheld' });
    expect(up.json<Citation>()).toMatchObject({ Status: 'upheld', AmountDue: 25 });
  });
});

describe('the late-fee job', () => {
  it('adds the fee after the due date, exactly once, and never to a paid or contested citation', async () => {
    const { driver, plate } = await driverWithPlate(10_000);
    const v = await violation('25.00', '10.00');
    const late = await cited(plate, v);
    const paid = await cited(plate, v);
    const contested = await cited(plate, v);
    await post(driver, `/api/Citations/${paid.CitationId}/Pay`, {}, { 'idempotency-key': randomUUID() });
    await post(driver, `/api/Citations/${contested.CitationId}/Contest`, { Reason: 'x' });
    const dueAt = new Date(late.DueAt);
    const lateOne = async () =>
      (await get(driver, '/api/Citations/List')).json<Citation[]>().find((x) => x.CitationId === late.CitationId)!;
    // A minute before its due date (the earlier tests' citations, due sooner on a slow run, may take theirs).
    await applyLateFees(db, new Date(dueAt.getTime() - 60_000));
    expect(await lateOne()).toMatchObject({ LateFee: 0, AmountDue: 25 });
    const after = new Date(dueAt.getTime() + 60_000);
    const [first, second] = await Promise.all([applyLateFees(db, after), applyLateFees(db, after)]);
    expect(first! + second!).toBeGreaterThanOrEqual(1);
    expect(await applyLateFees(db, new Date(after.getTime() + 86_400_000))).toBe(0);
    const mine = (await get(driver, '/api/Citations/List')).json<Citation[]>();
    const byId = (id: number) => mine.find((x) => x.CitationId === id)!;
    expect(byId(late.CitationId)).toMatchObject({ LateFee: 10, AmountDue: 35 });
    expect(byId(paid.CitationId)).toMatchObject({ LateFee: 0, AmountDue: 0 });
    expect(byId(contested.CitationId)).toMatchObject({ LateFee: 0 });
    const res = await post(driver, `/api/Citations/${late.CitationId}/Pay`, {}, { 'idempotency-key': randomUUID() });
    expect(res.json<{ Amount: number }>().Amount).toBe(35);
  });
});

// Refunds from the console: a manager finds a session of the operator's zones and refunds it wholly
// or partly with a reason, the way it was paid (the wallet through the ledger, a Quick Park card
// through the card path); idempotent, audited, never more than was paid, scoped by operator.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  OPERATOR_SESSION_MESSAGES as M,
  type AuditPage,
  type GuestToken,
  type OperatorSessionDetail,
  type OperatorSessionPage,
  type Quote,
  type RefundResponse,
  type SessionReceipt,
  type TransactionsPage,
} from '@parkit/contract';
import { operators, parkingCardPayments, walletCharges } from '../../../src/db/schema/index.ts';
import { stopOwned } from '../../../src/parking/index.ts';
import { concurrently, count, expectJsonNo5xx } from '../../concurrency.ts';
import { tableChecksums } from '../../guards/checksums.ts';
import { as, expectRefused, lastCode, newMember, registerAndSignIn, type SignedIn } from '../../helpers.ts';
import { twoOperators } from '../../operator-helpers.ts';
import { addVehicle, addZone, credit, startSession, walletState } from '../../parking-helpers.ts';
import { sandboxCardToken } from '../../wallet/helpers.ts';

const {
  app,
  db,
  A,
  B,
  ownerB,
  staff: { manager, analyst, officer },
} = await twoOperators('Other Refunds Parking', ['manager', 'analyst', 'officer'], { decorations: true });
const zoneId = await addZone(db, 'RF1'); // $2.50 an hour

/** A driver who parked 60 minutes and stopped at the last minute: every cent kept, the session ended. */
async function parkedAndStopped(): Promise<{ driver: SignedIn; sessionId: number; paidCents: number }> {
  const driver = await registerAndSignIn(app);
  await credit(db, driver.memberId, 5_000);
  const vehicleId = await addVehicle(app, driver);
  const s = await startSession(app, driver, { zoneId, vehicleId, minutes: 60 });
  await stopOwned(app.wallet, { memberId: driver.memberId }, s.SessionId, new Date(Date.now() + 59 * 60_000 + 30_000));
  return { driver, sessionId: s.SessionId, paidCents: Math.round(s.AmountPaid * 100) };
}

const refund = (who: SignedIn, sessionId: number, payload: object, key: string | null = randomUUID(), operatorId = A) =>
  as(app, who, {
    method: 'POST',
    url: `/api/Operator/${operatorId}/Sessions/${sessionId}/Refund`,
    payload,
    headers: key === null ? {} : { 'idempotency-key': key },
  });
const detail = async (sessionId: number) => {
  const res = await as(app, manager, { method: 'GET', url: `/api/Operator/${A}/Sessions/${sessionId}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<OperatorSessionDetail>();
};
const expectLedgerMatches = async (memberId: number) => {
  const w = await walletState(db, memberId);
  expect(w.ledger).toBe(w.balance);
  return w;
};

describe('refunding a wallet-paid session', () => {
  it('a manager refunds half with a reason: the wallet, the receipt, the console and the audit log show it', async () => {
    const { driver, sessionId, paidCents } = await parkedAndStopped();
    expect(paidCents).toBeGreaterThan(0);
    const before = await walletState(db, driver.memberId);
    const half = Math.floor(paidCents / 2);
    const res = await refund(manager, sessionId, { Amount: (half / 100).toFixed(2), Reason: 'Meter was broken' });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json<RefundResponse>();
    expect(body).toMatchObject({
      SessionId: sessionId,
      Amount: half / 100,
      RefundedAmount: half / 100,
      Refundable: (paidCents - half) / 100,
      PaidVia: 'Wallet',
      message: M.refunded,
    });
    // The driver's wallet: one 'refund' credit, and the ledger still equals the balance.
    const after = await expectLedgerMatches(driver.memberId);
    expect(after.balance - before.balance).toBe(half);
    const txs = (await as(app, driver, { method: 'GET', url: '/api/Wallet/Transactions' })).json<TransactionsPage>();
    expect(txs.Items[0]).toMatchObject({
      Kind: 'refund',
      Amount: half / 100,
      Reference: `session:${sessionId}:refund:${body.RefundId}`,
    });
    // The driver's receipt.
    const receipt = (
      await as(app, driver, { method: 'GET', url: `/api/Parking/Session/${sessionId}` })
    ).json<SessionReceipt>();
    expect(receipt.RefundedAmount).toBe(half / 100);
    expect(receipt.AmountPaid).toBe((paidCents - half) / 100);
    // The console's session.
    const d = await detail(sessionId);
    expect(d.Refunds).toEqual([
      {
        RefundId: body.RefundId,
        Amount: half / 100,
        Reason: 'Meter was broken',
        By: expect.any(String),
        At: expect.any(String),
      },
    ]);
    expect(d.Refundable).toBe((paidCents - half) / 100);
    // The audit log.
    const audit = (
      await as(app, manager, { method: 'GET', url: `/api/Operator/${A}/Audit?limit=1` })
    ).json<AuditPage>();
    expect(audit.Entries[0]).toMatchObject({
      Action: 'session.refund',
      Entity: 'session',
      EntityId: String(sessionId),
      ActorId: manager.memberId,
      After: expect.objectContaining({ Reason: 'Meter was broken', Amount: half / 100 }),
    });
  });

  it('Whole refunds what is left; then nothing is left (409) and the wallet is unchanged', async () => {
    const { driver, sessionId, paidCents } = await parkedAndStopped();
    expect((await refund(manager, sessionId, { Amount: 0.01, Reason: 'a cent' })).statusCode).toBe(201);
    const res = await refund(manager, sessionId, { Whole: true, Reason: 'Goodwill' });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json<RefundResponse>()).toMatchObject({ Amount: (paidCents - 1) / 100, Refundable: 0 });
    const w = await expectLedgerMatches(driver.memberId);
    expectRefused(await refund(manager, sessionId, { Whole: true, Reason: 'again' }), 409, 'Amount', M.nothingLeft);
    expect((await walletState(db, driver.memberId)).balance).toBe(w.balance);
  });

  it('the same Idempotency-Key answers the first refund again; with another body it is a 422', async () => {
    const { driver, sessionId } = await parkedAndStopped();
    const key = randomUUID();
    const first = await refund(manager, sessionId, { Amount: 0.5, Reason: 'once' }, key);
    expect(first.statusCode, first.body).toBe(201);
    const again = await refund(manager, sessionId, { Amount: 0.5, Reason: 'once' }, key);
    expect(again.statusCode).toBe(201);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.json()).toEqual(first.json());
    expectRefused(await refund(manager, sessionId, { Amount: 0.6, Reason: 'once' }, key), 422, 'Idempotency-Key');
    const w = await expectLedgerMatches(driver.memberId);
    expect(w.entries.filter((e) => e.kind === 'refund')).toHaveLength(1);
  });
});

describe('refusals change nothing', () => {
  it('bad and hostile input, no key, too much, a running session, roles, another operator', async () => {
    const { sessionId, paidCents } = await parkedAndStopped();
    const running = await (async () => {
      const d = await registerAndSignIn(app);
      await credit(db, d.memberId, 5_000);
      return startSession(app, d, { zoneId, vehicleId: await addVehicle(app, d), minutes: 30 });
    })();
    const before = await tableChecksums(db);
    expectRefused(await refund(manager, sessionId, { Amount: 1, Reason: 'x' }, null), 400, 'Idempotency-Key');
    expectRefused(await refund(manager, sessionId, { Reason: 'neither' }), 400, 'Amount', undefined);
    expectRefused(await refund(manager, sessionId, { Amount: 1, Whole: true, Reason: 'both' }), 400, 'Amount');
    expectRefused(await refund(manager, sessionId, { Amount: 1 }), 400, 'Reason');
    expectRefused(await refund(manager, sessionId, { Amount: 1, Reason: '   ' }), 400, 'Reason');
    expectRefused(await refund(manager, sessionId, { Amount: 'x'.repeat(5000), Reason: 'long' }), 400, 'Amount');
    for (const Amount of [0, -1, 1.001, '1e3', 'NaN', null, true, [1], { a: 1 }])
      expectRefused(await refund(manager, sessionId, { Amount, Reason: 'bad' }), 400, 'Amount');
    expectRefused(await refund(manager, sessionId, { Amount: 1, Reason: 'a\u0000b' }), 400, 'Reason');
    expectRefused(await refund(manager, sessionId, { Amount: 1, Reason: 'r'.repeat(501) }), 400, 'Reason');
    expectRefused(
      await refund(manager, sessionId, { Amount: (paidCents + 1) / 100, Reason: 'too much' }),
      409,
      'Amount',
      M.overRefund,
    );
    expectRefused(
      await refund(manager, running.SessionId, { Whole: true, Reason: 'running' }),
      409,
      'SessionId',
      M.sessionRunning,
    );
    // Roles: an analyst and an officer may not; a driver's token is 403 on the console.
    expect((await refund(analyst, sessionId, { Whole: true, Reason: 'analyst' })).statusCode).toBe(403);
    expect((await refund(officer, sessionId, { Whole: true, Reason: 'officer' })).statusCode).toBe(403);
    // Another operator: its owner naming A's session under B is a 404, as is an unknown session.
    expectRefused(
      await refund(ownerB, sessionId, { Whole: true, Reason: 'B' }, randomUUID(), B),
      404,
      undefined,
      M.sessionNotFound,
    );
    expect((await as(app, ownerB, { method: 'GET', url: `/api/Operator/${B}/Sessions/${sessionId}` })).statusCode).toBe(
      404,
    );
    expect((await refund(ownerB, sessionId, { Whole: true, Reason: 'B' }, randomUUID(), A)).statusCode).toBe(404);
    expect((await refund(manager, 2_000_000_000, { Whole: true, Reason: 'none' })).statusCode).toBe(404);
    for (const id of ['abc', '0', '-1', '1.5', '99999999999', "1' or '1'='1"])
      expect((await refund(manager, id as unknown as number, { Whole: true, Reason: 'bad id' })).statusCode).toBe(400);
    expect(await tableChecksums(db)).toEqual(before);
  });
});

describe('finding sessions', () => {
  it('lists the operator’s sessions by zone, day and plate, plates masked unless the operator opted in', async () => {
    const driver = await registerAndSignIn(app);
    await credit(db, driver.memberId, 5_000);
    const plate = `MSK${randomUUID().slice(0, 4).toUpperCase()}`;
    const s = await startSession(app, driver, { zoneId, vehicleId: await addVehicle(app, driver, plate), minutes: 30 });
    const list = async (q: string) => {
      const res = await as(app, analyst, { method: 'GET', url: `/api/Operator/${A}/Sessions?${q}` });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<OperatorSessionPage>();
    };
    const found = await list(`plate=${plate.toLowerCase()}`);
    expect(found.Sessions.map((x) => x.SessionId)).toEqual([s.SessionId]);
    expect(found.Sessions[0]!.PlateNumber).toBe(`${'•'.repeat(plate.length - 2)}${plate.slice(-2)}`);
    expect(found.Sessions[0]).toMatchObject({ Status: 'active', Refundable: 0, ZoneId: zoneId, ZoneNumber: 'RF1' });
    const today = new Date().toISOString().slice(0, 10);
    const near = (d: number) => new Date(Date.now() + d * 86_400_000).toISOString().slice(0, 10);
    expect((await list(`zoneId=${zoneId}&from=${near(-1)}&to=${near(1)}&plate=${plate}`)).Sessions).toHaveLength(1);
    expect((await list(`from=${near(2)}&plate=${plate}`)).Sessions).toHaveLength(0);
    expect((await list(`to=${near(-2)}&plate=${plate}`)).Sessions).toHaveLength(0);
    expect(today).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    // Paging: newest first, Next is the keyset.
    const page = await list('limit=1');
    expect(page.Sessions).toHaveLength(1);
    expect(page.Next).toBe(page.Sessions[0]!.SessionId);
    const older = await list(`limit=1&before=${page.Next}`);
    expect(older.Sessions[0]!.SessionId).toBeLessThan(page.Next!);
    // Opted in: the plate in full.
    await db.update(operators).set({ showPlates: true }).where(eq(operators.id, A));
    try {
      expect((await list(`plate=${plate}`)).Sessions[0]!.PlateNumber).toBe(plate);
    } finally {
      await db.update(operators).set({ showPlates: false }).where(eq(operators.id, A));
    }
    // Another operator sees none of A's sessions.
    const b = await as(app, ownerB, { method: 'GET', url: `/api/Operator/${B}/Sessions?plate=${plate}` });
    expect(b.json<OperatorSessionPage>().Sessions).toEqual([]);
    for (const q of [
      'from=2026-13-45',
      'to=yesterday',
      'zoneId=abc',
      'limit=0',
      'limit=101',
      `plate=${'x'.repeat(21)}`,
      'before=-3',
    ])
      expectRefused(await as(app, analyst, { method: 'GET', url: `/api/Operator/${A}/Sessions?${q}` }), 400);
  });
});

describe('refunding a Quick Park (card-paid) session', () => {
  async function guestSession() {
    const phone = newMember().PhoneNumber;
    await app.inject({ method: 'POST', url: '/api/Parking/Guest/SendCode', payload: { PhoneNumber: phone } });
    const verified = await app.inject({
      method: 'POST',
      url: '/api/Parking/Guest/Verify',
      payload: { PhoneNumber: phone, Code: await lastCode(app, phone) },
    });
    const token = verified.json<GuestToken>().GuestToken;
    const post = (url: string, payload: object) =>
      app.inject({ method: 'POST', url: `/api/Parking/Guest/${url}`, payload, headers: { 'x-guest-token': token } });
    const q = (
      await post('Quote', {
        ZoneNumber: 'RF1',
        PlateNumber: `QP${randomUUID().slice(0, 4)}`,
        PlateState: 'TX',
        DurationMinutes: 60,
      })
    ).json<Quote>();
    const card = await sandboxCardToken(app);
    const started = await post('Start', { QuoteId: q.QuoteId, CardToken: card });
    expect(started.statusCode, started.body).toBe(201);
    const id = started.json<{ SessionId: number }>().SessionId;
    await stopOwned(app.wallet, { guestPhone: phone }, id, new Date(Date.now() + 59 * 60_000 + 30_000));
    return { id };
  }

  it('goes back to the card through the card path, recorded, counted on the charge', async () => {
    const { id } = await guestSession();
    const d0 = await detail(id);
    expect(d0.PaidVia).toBe('Card');
    const res = await refund(manager, id, { Amount: 1, Reason: 'Card refund' });
    expect(res.statusCode, res.body).toBe(201);
    const r = res.json<RefundResponse>();
    const charges = await db
      .select()
      .from(walletCharges)
      .where(sql`${walletCharges.providerKey} like ${`operator-refund:${r.RefundId}:%`}`);
    expect(charges).toMatchObject([{ kind: 'quick-park-refund', status: 'recorded', amountCents: 100 }]);
    const [payment] = await db.select().from(parkingCardPayments).where(eq(parkingCardPayments.sessionId, id));
    expect(payment!.refundedCents).toBe(100);
    expect((await detail(id)).RefundedAmount).toBe(1);
    // The rest, whole: never more than the card paid.
    const whole = await refund(manager, id, { Whole: true, Reason: 'rest' });
    expect(whole.statusCode, whole.body).toBe(201);
    const [paid] = await db.select().from(parkingCardPayments).where(eq(parkingCardPayments.sessionId, id));
    expect(paid!.refundedCents).toBe(paid!.amountCents);
  });
});

describe('concurrent refunds', () => {
  it('8 at once (some keys the same) never refund more than was paid, and ledger == balance after', async () => {
    const { driver, sessionId, paidCents } = await parkedAndStopped();
    const before = await walletState(db, driver.memberId);
    const each = Math.ceil(paidCents / 5); // 5 different ones would be more than was paid
    const results = await concurrently(8, (i) =>
      refund(
        manager,
        sessionId,
        { Amount: (each / 100).toFixed(2), Reason: `burst ${i % 6}` },
        `burst-${sessionId}-${i % 6}`,
      ),
    );
    expectJsonNo5xx(results);
    for (const r of results) expect([201, 409]).toContain(r.statusCode);
    const after = await expectLedgerMatches(driver.memberId);
    const refunded = after.balance - before.balance;
    expect(refunded).toBeLessThanOrEqual(paidCents);
    const fresh = results.filter((r) => r.statusCode === 201 && r.headers['idempotent-replayed'] !== 'true');
    expect(refunded).toBe(fresh.length * each);
    expect(fresh.length).toBe(Math.floor(paidCents / each));
    const d = await detail(sessionId);
    expect(Math.round(d.RefundedAmount * 100)).toBe(refunded);
    expect(d.Refunds).toHaveLength(fresh.length);
    expect(await count(db, sql`select count(*)::int as n from session_refunds where session_id = ${sessionId}`)).toBe(
      fresh.length,
    );
  });

  it('8 Whole refunds at once, each with its own key: exactly one gives everything back', async () => {
    const { driver, sessionId, paidCents } = await parkedAndStopped();
    const before = await walletState(db, driver.memberId);
    const results = await concurrently(8, (i) => refund(manager, sessionId, { Whole: true, Reason: `all ${i}` }));
    expectJsonNo5xx(results);
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    const after = await expectLedgerMatches(driver.memberId);
    expect(after.balance - before.balance).toBe(paidCents);
  });
});

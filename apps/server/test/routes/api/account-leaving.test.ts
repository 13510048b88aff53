// Leaving cleanly (docs/data.md#leaving): GET /api/Account/Export and POST /api/Account/Delete, on
// PGlite and PostgreSQL. The race of a deletion with Add Money shows on PostgreSQL.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { AccountExport, DeleteAccountResponse, LEAVING_MESSAGES } from '@parkit/contract';
import { queryRows } from '../../../src/db/client.ts';
import { members, parkingSessions, vehicles, walletRefunds } from '../../../src/db/schema/index.ts';
import { closeAccount } from '../../../src/privacy/index.ts';
import { chargeAddMoney } from '../../../src/wallet/index.ts';
import { concurrently, expectJsonNo5xx } from '../../concurrency.ts';
import {
  as,
  buildTestApp,
  expectRefused,
  MANY_REQUESTS,
  newMember,
  registerAndSignIn,
  tokenPost,
  type SignedIn,
} from '../../helpers.ts';
import { addVehicle, addZone, credit, pay, quote, startSession, walletState } from '../../parking-helpers.ts';
import { addCard, addMoney, walletContext } from '../../wallet/helpers.ts';
import { browserKeys } from '../../push/fake-push-service.ts';

const { app, database } = await buildTestApp(MANY_REQUESTS);
const db = database.db;
const zone = await addZone(db, '8801');
const PASSWORD = newMember().Password;

const remove = (who: SignedIn, payload: unknown = { Password: PASSWORD }, key: string | null = randomUUID()) =>
  as(app, who, {
    method: 'POST',
    url: '/api/Account/Delete',
    payload: payload as object,
    headers: key === null ? {} : { 'idempotency-key': key },
  });

const exported = (who: SignedIn) => as(app, who, { method: 'GET', url: '/api/Account/Export' });

/** Every member's balance equals the sum of their ledger. */
async function everyLedgerSums() {
  const off = await queryRows<{ id: number }>(
    db,
    sql`select m.id from members m where m.balance_cents <> coalesce((select sum(amount_cents) from ledger_entries l where l.member_id = m.id), 0)`,
  );
  expect(off).toEqual([]);
}

/** A member with a vehicle, a card, money added, an ended session, a chat message and a call-back. */
async function busyMember(): Promise<SignedIn & { userName: string }> {
  const form = newMember();
  const reg = await app.inject({ method: 'POST', url: '/api/Account/Register', payload: form });
  expect(reg.statusCode).toBe(201);
  const out = await app.inject({ method: 'GET', url: `/api/Dev/Outbox?to=${form.PhoneNumber}&limit=1` });
  const code = /\b(\d{6})\b/.exec(out.json<{ Body: string }[]>()[0]?.Body ?? '')?.[1] ?? '';
  const tok = (await tokenPost(app, { grant_type: 'otp', phone: form.PhoneNumber, code })).json<{
    access_token: string;
    refresh_token: string;
    member_id: number;
  }>();
  const who = {
    memberId: tok.member_id,
    token: tok.access_token,
    refreshToken: tok.refresh_token,
    phone: form.PhoneNumber,
    headers: { authorization: `Bearer ${tok.access_token}`, xapikey: String(tok.member_id) },
    userName: form.UserName,
  };
  const car = await addVehicle(app, who);
  await addCard(app, who);
  expect((await addMoney(app, who, { Amount: 20 })).statusCode).toBe(200);
  const s = await startSession(app, who, { zoneId: zone, vehicleId: car, minutes: 60 });
  expect(
    (await as(app, who, { method: 'POST', url: '/api/Parking/Stop', payload: { SessionId: s.SessionId } })).statusCode,
  ).toBe(200);
  expect(
    (
      await as(app, who, {
        method: 'POST',
        url: '/api/Support/Chat/Send',
        payload: { Text: 'Where is my receipt?', ClientMessageId: randomUUID() },
      })
    ).statusCode,
  ).toBe(201);
  return who;
}

describe('GET /api/Account/Export: everything about the member, as one file', () => {
  it('holds the profile, vehicles, cards (brand and last 4 only), sessions, ledger and chat, and nobody else’s', async () => {
    const alice = await busyMember();
    const bob = await busyMember();
    const res = await exported(alice);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="parkit-data-\d{4}-\d{2}-\d{2}\.json"$/);
    const data = AccountExport.parse(res.json());
    expect(data.Profile.MemberId).toBe(alice.memberId);
    expect(data.Profile.PhoneNumber).toBe(alice.phone);
    expect(data.Vehicles).toHaveLength(1);
    expect(data.Cards).toEqual([expect.objectContaining({ Brand: 'Visa', Last4: '4242' })]);
    expect(res.body).not.toMatch(/tok_sandbox|pm_/);
    expect(data.ParkingSessions).toHaveLength(1);
    expect(data.Ledger.map((e) => e.Kind)).toEqual(['top-up', 'parking', 'refund']);
    expect(data.Ledger.reduce((a, e) => a + e.Amount, 0)).toBeCloseTo(data.Profile.Balance, 2);
    expect(data.SupportChat.some((m) => m.From === 'user' && m.Text === 'Where is my receipt?')).toBe(true);
    expect(res.body).not.toContain(bob.phone);
    expectRefused(await app.inject({ method: 'GET', url: '/api/Account/Export' }), 401);
  });

  it('holds the reminder settings (the defaults until saved) and the push subscriptions, without their keys', async () => {
    const m = await busyMember();
    const before = AccountExport.parse((await exported(m)).json());
    expect(before.Reminders).toEqual({ ReminderMinutes: 10, PushReminders: false, SmsReminders: true });
    expect(before.PushSubscriptions).toEqual([]);

    const saved = await as(app, m, {
      method: 'POST',
      url: '/api/Account/Reminders',
      payload: { ReminderMinutes: 30, PushReminders: true },
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const keys = browserKeys();
    const endpoint = `https://fcm.googleapis.com/fcm/send/export-${randomUUID()}`;
    const sub = await as(app, m, {
      method: 'POST',
      url: '/api/Push/Subscription',
      payload: { endpoint, expirationTime: null, keys: keys.json, Language: 'hi' },
    });
    expect(sub.statusCode, sub.body).toBeLessThan(300);

    const res = await exported(m);
    const data = AccountExport.parse(res.json());
    expect(data.Reminders).toEqual({ ReminderMinutes: 30, PushReminders: true, SmsReminders: true });
    expect(data.PushSubscriptions).toEqual([{ Endpoint: endpoint, Language: 'hi', SubscribedAt: expect.any(String) }]);
    expect(res.body).not.toContain(keys.json.auth);
    expect(res.body).not.toContain(keys.json.p256dh);
  });
});

describe('POST /api/Account/Delete', () => {
  it('refuses a wrong password, a missing one and a missing Idempotency-Key, and changes nothing', async () => {
    const m = await busyMember();
    const before = await walletState(db, m.memberId);
    expectRefused(await remove(m, { Password: 'not my password' }), 400, 'Password', LEAVING_MESSAGES.passwordWrong);
    expectRefused(await remove(m, {}), 400, 'Password');
    expectRefused(await remove(m, { Password: PASSWORD }, null), 400, 'Idempotency-Key');
    expect(await walletState(db, m.memberId)).toEqual(before);
    expect((await as(app, m, { method: 'GET', url: '/api/Account/Details' })).statusCode).toBe(200);
  });

  it('waits while a parking session runs, and says so', async () => {
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 1000);
    const car = await addVehicle(app, m);
    await startSession(app, m, { zoneId: zone, vehicleId: car, minutes: 60 });
    const before = await walletState(db, m.memberId);
    expectRefused(await remove(m), 409, undefined, LEAVING_MESSAGES.sessionRunning);
    expect(await walletState(db, m.memberId)).toEqual(before);
    expect((await as(app, m, { method: 'GET', url: '/api/Account/Details' })).statusCode).toBe(200);
  });

  it('refunds the wallet to the card, ends every token, erases the person and keeps the receipts', async () => {
    const m = await busyMember();
    const other = await busyMember();
    const otherBefore = (await exported(other)).json<AccountExport>();
    const balance = (await walletState(db, m.memberId)).balance;
    expect(balance).toBeGreaterThan(0);
    // The token is verified and its session version cached before the deletion.
    expect((await as(app, m, { method: 'GET', url: '/api/Account/Details' })).statusCode).toBe(200);

    const res = await remove(m);
    expect(res.statusCode, res.body).toBe(200);
    const body = DeleteAccountResponse.parse(res.json());
    expect(body).toEqual({ message: LEAVING_MESSAGES.deleted, RefundedAmount: balance / 100, ForfeitedCredit: 0 });

    // Tokens end at once: the access token, the refresh token, the password, the code sign-in.
    expectRefused(await as(app, m, { method: 'GET', url: '/api/Account/Details' }), 401);
    expectRefused(await as(app, m, { method: 'GET', url: '/api/Account/Export' }), 401);
    expect((await tokenPost(app, { grant_type: 'refresh_token', refresh_token: m.refreshToken })).statusCode).toBe(401);
    expect(
      (await tokenPost(app, { grant_type: 'password', username: m.userName, password: PASSWORD })).statusCode,
    ).toBe(400);
    expect(
      (await tokenPost(app, { grant_type: 'password', username: `#deleted-${m.memberId}`, password: 'deleted' }))
        .statusCode,
    ).toBe(400);

    // The money went back to the card, through the ledger, and the provider was asked.
    const w = await walletState(db, m.memberId);
    expect(w.balance).toBe(0);
    expect(w.ledger).toBe(0);
    expect(w.entries.at(-1)).toEqual({ kind: 'card-refund', amount: -balance });
    const refunds = await db.select().from(walletRefunds).where(eq(walletRefunds.memberId, m.memberId));
    expect(refunds.map((r) => [r.status, r.amountCents])).toEqual([['done', balance]]);
    expect(refunds[0]?.refundRef).toMatch(/^re_sandbox_/);

    // No name, phone or e-mail is left; the receipts stay.
    const [row] = await db.select().from(members).where(eq(members.id, m.memberId));
    expect(row?.deletedAt).not.toBeNull();
    const person = JSON.stringify(row);
    expect(person).not.toContain(m.phone);
    expect(person).not.toContain(m.userName);
    expect(row?.firstName).toBe('');
    expect(await db.select().from(vehicles).where(eq(vehicles.memberId, m.memberId))).toEqual([]);
    const receipts = await db.select().from(parkingSessions).where(eq(parkingSessions.memberId, m.memberId));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.guestPhone).toBeNull();

    // The phone registers anew; the other member is untouched; every ledger still sums.
    const again = await registerAndSignIn(app, { PhoneNumber: m.phone });
    expect(again.memberId).not.toBe(m.memberId);
    const otherAfter = (await exported(other)).json<AccountExport>();
    expect({ ...otherAfter, ExportedAt: '' }).toEqual({ ...otherBefore, ExportedAt: '' });
    await everyLedgerSums();
  });

  it('credit no card paid for ends with the account; what a card paid goes back to it', async () => {
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 500);
    await addCard(app, m);
    expect((await addMoney(app, m, { Amount: 10 })).statusCode).toBe(200);
    const res = await remove(m);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<DeleteAccountResponse>()).toMatchObject({ RefundedAmount: 10, ForfeitedCredit: 5 });
    const w = await walletState(db, m.memberId);
    expect(w).toMatchObject({ balance: 0, ledger: 0 });
    expect(w.entries.slice(-2)).toEqual([
      { kind: 'card-refund', amount: -1000 },
      { kind: 'adjustment', amount: -500 },
    ]);
  });

  it('a deletion and Add Money at once: the wallet ends empty, the ledger sums, nothing is credited after', async () => {
    for (let round = 0; round < 4; round++) {
      const m = await registerAndSignIn(app);
      await addCard(app, m);
      expect((await addMoney(app, m, { Amount: 10 })).statusCode).toBe(200);
      const results = await concurrently(4, (i) => (i === 0 ? remove(m) : addMoney(app, m, { Amount: 5 })));
      expectJsonNo5xx(results);
      expect([200, 409]).toContain(results[0]!.statusCode);
      for (const r of results.slice(1)) expect([200, 401, 404, 409]).toContain(r.statusCode);
      const w = await walletState(db, m.memberId);
      expect(w.ledger).toBe(w.balance);
      if (results[0]!.statusCode === 200) {
        expect(w.balance).toBe(0);
        // Every top-up recorded went back to the card.
        const [sums] = await queryRows<{ charged: number; refunded: number }>(
          db,
          sql`select coalesce(sum(amount_cents), 0)::int as charged, coalesce(sum(refunded_cents), 0)::int as refunded from wallet_charges where member_id = ${m.memberId} and status = 'recorded'`,
        );
        expect(Number(sums?.refunded)).toBe(Number(sums?.charged));
      } else {
        expectRefused(results[0]!, 409, undefined, LEAVING_MESSAGES.chargePending);
      }
    }
    await everyLedgerSums();
  });

  it('one deletion per member even when sent twice at once with one key', async () => {
    const m = await registerAndSignIn(app);
    await addCard(app, m);
    expect((await addMoney(app, m, { Amount: 10 })).statusCode).toBe(200);
    const key = randomUUID();
    const results = await concurrently(2, () => remove(m, { Password: PASSWORD }, key));
    expectJsonNo5xx(results);
    expect(results.some((r) => r.statusCode === 200)).toBe(true);
    const refunds = await db.select().from(walletRefunds).where(eq(walletRefunds.memberId, m.memberId));
    expect(refunds.reduce((a, r) => a + r.amountCents, 0)).toBe(1000);
    expect((await walletState(db, m.memberId)).balance).toBe(0);
  });
});

describe('a card charge against a deletion under way', () => {
  it('waits for the deletion, then finds the account deleted and charges nothing', async () => {
    const m = await registerAndSignIn(app);
    await addCard(app, m);
    expect((await addMoney(app, m, { Amount: 10 })).statusCode).toBe(200);
    const charge = () =>
      chargeAddMoney(walletContext(db), m.memberId, randomUUID(), { amountCents: 500 }).then(
        () => 'charged',
        (err: { statusCode?: number }) => err.statusCode ?? String(err),
      );
    let outcome: unknown;
    if (process.env.TEST_DB === 'postgres') {
      // The deletion holds the member's row until it commits; the charge starts meanwhile.
      let closed!: () => void;
      const inside = new Promise<void>((r) => (closed = r));
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const deletion = db.transaction(async (tx) => {
        await closeAccount(tx, m.memberId, randomUUID());
        closed();
        await gate;
      });
      await inside;
      const pending = charge();
      await new Promise((r) => setTimeout(r, 300));
      release();
      await deletion;
      outcome = await pending;
    } else {
      // PGlite has one connection: the charge comes after the deletion.
      await db.transaction((tx) => closeAccount(tx, m.memberId, randomUUID()));
      outcome = await charge();
    }
    // On PostgreSQL the charge had read the card before the deletion committed: the share lock stops it
    // (404). After the deletion there is no card to charge at all (400).
    expect(outcome).toBe(process.env.TEST_DB === 'postgres' ? 404 : 400);
    const [c] = await queryRows<{ n: number }>(
      db,
      sql`select count(*)::int as n from wallet_charges where member_id = ${m.memberId}`,
    );
    expect(Number(c?.n)).toBe(1);
    expect(await walletState(db, m.memberId)).toMatchObject({ balance: 0, ledger: 0 });
  });
});

// The parking helpers' quote and pay are used by startSession; a Start after the deletion is refused.
describe('after the deletion', () => {
  it('the member can start nothing', async () => {
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 1000);
    const car = await addVehicle(app, m);
    const q = await quote(app, m, { ZoneId: zone, VehicleId: car, DurationMinutes: 60 });
    expect((await remove(m)).statusCode).toBe(200);
    expectRefused(await pay(app, m, 'Start', { QuoteId: q.json<{ QuoteId: string }>().QuoteId }), 401);
  });
});

// The money paths of issue 27: one writer of balances, card charges outside any transaction and
// their recovery, one auto-reload rule, and every balance from the ledger (the demo member's too).
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ParkingSession, Quote } from '@parkit/contract';
import { queryRows } from '../../src/db/client.ts';
import { ledgerEntries, members, walletCharges } from '../../src/db/schema/index.ts';
import { DEMO_BALANCE_CENTS, DEMO_MEMBER, seedDemoMember } from '../../src/seeds/demo-member.ts';
import { chargeCard, recoverCharges } from '../../src/wallet/index.ts';
import { postEntry } from '../../src/wallet/index.ts';
import { chargeAddMoney } from '../../src/wallet/index.ts';
import { as, buildTestApp, MANY_REQUESTS, registerAndSignIn, type SignedIn } from '../helpers.ts';
import { addVehicle, addZone, credit, pay, quote, startSession, walletState } from '../parking-helpers.ts';
import { addCard, addMoney, CARDS, walletContext } from './helpers.ts';

const { app, database } = await buildTestApp(MANY_REQUESTS);
const db = database.db;
const wallet = walletContext(db);
const zone = await addZone(db, '7501'); // $2.50/h: 60 minutes = 2.50 + 0.35 fee

const chargesOf = (memberId: number) => db.select().from(walletCharges).where(eq(walletCharges.memberId, memberId));
const entriesWith = (memberId: number, reference: string) =>
  db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.memberId, memberId), eq(ledgerEntries.reference, reference)));
const expectLedgerIsBalance = async (memberId: number) => {
  const w = await walletState(db, memberId);
  expect(w.ledger).toBe(w.balance);
  return w;
};

describe('every balance comes from the ledger', () => {
  it('the demo member’s seeded 25.00 is a ledger entry: balance == sum(ledger)', async () => {
    await seedDemoMember(db);
    const [demo] = await db.select().from(members).where(eq(members.userName, DEMO_MEMBER.UserName));
    expect(demo).toBeDefined();
    const w = await expectLedgerIsBalance(demo!.id);
    expect(w.balance).toBe(DEMO_BALANCE_CENTS);
    expect(w.entries).toEqual([{ kind: 'adjustment', amount: DEMO_BALANCE_CENTS }]);
  });

  it('a debit for a member that does not exist is a 404 and writes nothing', async () => {
    const before = (await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ledger_entries`))[0]?.n;
    await expect(
      db.transaction((tx) =>
        postEntry(tx, { memberId: 2_000_000_000, amountCents: -100, kind: 'parking', reference: 'x' }),
      ),
    ).rejects.toMatchObject({
      statusCode: 404,
    });
    expect((await queryRows<{ n: number }>(db, sql`select count(*)::int as n from ledger_entries`))[0]?.n).toBe(before);
  });
});

describe('a card charge outside the transaction, then its record', () => {
  async function memberWithCard(): Promise<SignedIn> {
    const m = await registerAndSignIn(app);
    await addCard(app, m);
    return m;
  }

  it('a crash between the charge and the record: the job charges the same key again and records it once', async () => {
    const m = await memberWithCard();
    const key = randomUUID();
    // The first half of Add Money ran (the card is charged), then the process died before the record.
    const charged = await chargeAddMoney(wallet, m.memberId, key, { amountCents: 1500 });
    expect(await chargesOf(m.memberId)).toMatchObject([{ status: 'pending', amountCents: 1500 }]);
    expect((await walletState(db, m.memberId)).balance).toBe(0);
    // Not before its grace period: the request may still be recording it.
    expect(await recoverCharges(wallet)).toBe(0);
    expect(await recoverCharges(wallet, 0)).toBe(1);
    expect(await recoverCharges(wallet, 0)).toBe(0);
    const w = await expectLedgerIsBalance(m.memberId);
    expect(w.balance).toBe(1500);
    // The provider answered the retry with the first charge: one charge, credited once.
    expect(await entriesWith(m.memberId, `charge:${charged.chargeRef}`)).toHaveLength(1);
    expect(await chargesOf(m.memberId)).toMatchObject([{ status: 'recorded', chargeRef: charged.chargeRef }]);
    // The client's retry with the same Idempotency-Key answers 200 without a second credit.
    const retry = await addMoney(app, m, { Amount: 15 }, key);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(retry.json()).toMatchObject({ Amount: 15, Balance: 15 });
    expect((await expectLedgerIsBalance(m.memberId)).balance).toBe(1500);
  });

  it('a crash, then the client’s retry first: recorded once, and the job finds nothing left', async () => {
    const m = await memberWithCard();
    const key = randomUUID();
    await chargeAddMoney(wallet, m.memberId, key, { amountCents: 700 });
    const retry = await addMoney(app, m, { Amount: 7 }, key);
    expect(retry.statusCode, retry.body).toBe(200);
    expect(await recoverCharges(wallet, 0)).toBe(0);
    const w = await expectLedgerIsBalance(m.memberId);
    expect(w.entries).toEqual([{ kind: 'top-up', amount: 700 }]);
    // And the same key with another amount is the 422 of a reused key, charging nothing.
    const other = await addMoney(app, m, { Amount: 8 }, key);
    expect(other.statusCode).toBe(422);
    expect(await chargesOf(m.memberId)).toHaveLength(1);
  });

  it('a charge the provider declines leaves nothing pending and credits nothing', async () => {
    const m = await registerAndSignIn(app);
    await addCard(app, m, CARDS.declined);
    const res = await addMoney(app, m, { Amount: 10 });
    expect(res.statusCode).toBe(402);
    expect(await chargesOf(m.memberId)).toEqual([]);
    expect(await recoverCharges(wallet, 0)).toBe(0);
    expect((await walletState(db, m.memberId)).entries).toEqual([]);
  });

  it('an auto-reload charged before a crash is recovered as an auto-reload entry', async () => {
    const m = await memberWithCard();
    const [card] = await queryRows<{ provider_ref: string }>(
      db,
      sql`select provider_ref from payment_methods where member_id = ${m.memberId}`,
    );
    const charged = await chargeCard(wallet, {
      memberId: m.memberId,
      providerKey: `reload:${m.memberId}:crash`,
      kind: 'auto-reload',
      amountCents: 2000,
      description: 'ParkIt wallet auto-reload',
      providerRef: card!.provider_ref,
      customerRef: null,
      idempotencyKey: null,
    });
    expect(charged.ok).toBe(true);
    expect(await recoverCharges(wallet, 0)).toBe(1);
    expect((await expectLedgerIsBalance(m.memberId)).entries).toEqual([{ kind: 'auto-reload', amount: 2000 }]);
  });
});

describe('one auto-reload rule for Start, Extend and Amend', () => {
  /** A member whose wallet reloads 20.00 when a debit leaves it under 10.00. */
  async function reloading(balanceCents: number): Promise<SignedIn> {
    const m = await registerAndSignIn(app);
    await addCard(app, m);
    const res = await as(app, m, {
      method: 'POST',
      url: '/api/Account/AutoReload',
      payload: { AutoReload: true, DefaultAddAmount: 20, MinBalance: 10 },
    });
    expect(res.statusCode, res.body).toBe(200);
    await credit(db, m.memberId, balanceCents);
    return m;
  }
  const reloads = async (memberId: number) =>
    (await walletState(db, memberId)).entries.filter((e) => e.kind === 'auto-reload').length;

  it('Start (its one statement) reloads after COMMIT when its debit crossed the trigger, and not when it stayed above', async () => {
    const above = await reloading(1500);
    await startSession(app, above, { zoneId: zone, vehicleId: await addVehicle(app, above), minutes: 60 });
    expect(await reloads(above.memberId)).toBe(0);
    const crossing = await reloading(1200);
    await startSession(app, crossing, { zoneId: zone, vehicleId: await addVehicle(app, crossing), minutes: 60 });
    expect(await reloads(crossing.memberId)).toBe(1);
    expect((await expectLedgerIsBalance(crossing.memberId)).balance).toBe(1200 - 285 + 2000);
  });

  it('Extend reloads after COMMIT when its debit crossed the trigger, once', async () => {
    // 13.00 - 1.60 (30 minutes and the fee) stays above 10.00; - 2.50 for 60 more minutes does not.
    const m = await reloading(1300);
    const s = await startSession(app, m, { zoneId: zone, vehicleId: await addVehicle(app, m), minutes: 30 });
    expect(await reloads(m.memberId)).toBe(0);
    const q = (await quote(app, m, { SessionId: s.SessionId, DurationMinutes: 60 })).json<Quote>();
    const key = randomUUID();
    const res = await pay(app, m, 'Extend', { QuoteId: q.QuoteId }, key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ParkingSession>().DurationMinutes).toBe(90);
    expect(await reloads(m.memberId)).toBe(1);
    // A replay runs nothing again.
    expect((await pay(app, m, 'Extend', { QuoteId: q.QuoteId }, key)).headers['idempotent-replayed']).toBe('true');
    expect(await reloads(m.memberId)).toBe(1);
    await expectLedgerIsBalance(m.memberId);
  });
});

// The money paths of issue 27: one writer of balances, card charges outside any transaction and
// their recovery, one auto-reload rule, and every balance from the ledger (the demo member's too).
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ParkingSession, Quote } from '@parkit/contract';
import { queryRows } from '../../src/db/client.ts';
import { ledgerEntries, members, walletCharges } from '../../src/db/schema/index.ts';
import { DEMO_BALANCE_CENTS, DEMO_MEMBER, seedDemoMember } from '../../src/seeds/demo-member.ts';
import {
  chargeAddMoney,
  chargeCard,
  claimCharge,
  dropPending,
  markRecorded,
  lockWallet,
  otherChargePending,
  postEntry,
  recordCharge,
  recoverCharges,
  stripeProvider,
  type CardCharge,
  type ChargeContext,
  type PaymentProvider,
  type WalletCharge,
} from '../../src/wallet/index.ts';
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

describe('chargeCard, recordCharge and the job’s recovery, one rule at a time', () => {
  /** The sandbox provider, counting the charges sent to it. */
  function counting(): { ctx: ChargeContext; sent: string[] } {
    const sent: string[] = [];
    const provider: PaymentProvider = {
      ...wallet.provider,
      charge: (req) => {
        sent.push(req.idempotencyKey);
        return wallet.provider.charge(req);
      },
    };
    return { ctx: { ...wallet, provider }, sent };
  }
  /** A provider that cannot be reached: Stripe's client against a port nothing listens on. */
  async function unreachable(): Promise<ChargeContext> {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const { port } = s.address() as { port: number };
        s.close(() => resolve(port));
      });
    });
    return {
      ...wallet,
      provider: stripeProvider({ secretKey: 'sk_test_unreachable', apiUrl: `http://127.0.0.1:${port}` }),
    };
  }
  async function cardCharge(amountCents = 1200): Promise<CardCharge> {
    const m = await registerAndSignIn(app);
    await addCard(app, m);
    const [card] = await queryRows<{ provider_ref: string }>(
      db,
      sql`select provider_ref from payment_methods where member_id = ${m.memberId}`,
    );
    return {
      memberId: m.memberId,
      providerKey: `test:${randomUUID()}`,
      kind: 'top-up',
      amountCents,
      description: 'ParkIt wallet top-up',
      providerRef: card!.provider_ref,
      customerRef: null,
      idempotencyKey: null,
    };
  }
  const record = (c: CardCharge, charged: Awaited<ReturnType<typeof chargeCard>>) => {
    if (!charged.ok) throw new Error(charged.message);
    return db.transaction(async (tx) => {
      await lockWallet(tx, c.memberId);
      return recordCharge(tx, charged.chargeId, charged.chargeRef);
    });
  };
  const age = (id: number, interval: string) =>
    db.execute(sql`update wallet_charges set created_at = now() - ${interval}::interval where id = ${id}`);
  const keyOf = async (id: number) => (await db.select().from(walletCharges).where(eq(walletCharges.id, id)))[0];

  it('a charge recorded under its key is answered again without the provider, and recorded once', async () => {
    const { ctx, sent } = counting();
    const c = await cardCharge();
    const first = await chargeCard(ctx, c);
    expect(first).toMatchObject({ ok: true });
    const recorded = await record(c, first);
    expect(recorded).toMatchObject({ balanceCents: 1200, amountCents: 1200, recordedNow: true });
    expect(await chargeCard(ctx, c)).toEqual(first);
    expect(sent).toEqual([c.providerKey]);
    // Recorded again (the job and the request both got there): the first record's entry, no credit.
    expect(await record(c, first)).toEqual({ ...recorded, recordedNow: false });
    const w = await expectLedgerIsBalance(c.memberId);
    expect(w.entries).toEqual([{ kind: 'top-up', amount: 1200 }]);
  });

  it('the same key for another amount, card or member is the 422 of a reused key, and charges nothing', async () => {
    const { ctx, sent } = counting();
    const c = await cardCharge();
    const other = await cardCharge();
    const first = await chargeCard(ctx, c);
    await record(c, first);
    for (const changed of [
      { amountCents: 1300 },
      { providerRef: other.providerRef },
      { memberId: other.memberId },
      { memberId: other.memberId, providerRef: other.providerRef },
    ]) {
      await expect(chargeCard(ctx, { ...c, ...changed }), JSON.stringify(changed)).rejects.toMatchObject({
        statusCode: 422,
        errors: [
          { field: 'Idempotency-Key', message: 'This Idempotency-Key was already used for a different request' },
        ],
      });
    }
    expect(sent).toHaveLength(1);
    expect(await chargesOf(other.memberId)).toEqual([]);
  });

  it('a key recorded more than 24 hours ago, or whose request’s key expired, is new again; the old charge keeps its history under another name', async () => {
    const { ctx, sent } = counting();
    const c = await cardCharge(500);
    const first = await chargeCard(ctx, c);
    await record(c, first);
    if (!first.ok) throw new Error('not charged');
    // A day old but not yet 24 hours: still the same charge.
    await age(first.chargeId, '23 hours');
    expect(await chargeCard(ctx, c)).toEqual(first);
    await age(first.chargeId, '25 hours');
    const second = await chargeCard(ctx, c);
    if (!second.ok) throw new Error('not charged');
    expect(second.chargeId).not.toBe(first.chargeId);
    await record(c, second);
    expect(await keyOf(first.chargeId)).toMatchObject({
      providerKey: `${c.providerKey}#${first.chargeId}`,
      status: 'recorded',
      amountCents: 500,
    });
    // A fresh record, but the request's Idempotency-Key expired: new again too.
    const third = await chargeCard(ctx, c, { keyExpired: true });
    if (!third.ok) throw new Error('not charged');
    expect(third.chargeId).not.toBe(second.chargeId);
    await record(c, third);
    expect(await keyOf(second.chargeId)).toMatchObject({ providerKey: `${c.providerKey}#${second.chargeId}` });
    expect(await keyOf(third.chargeId)).toMatchObject({ providerKey: c.providerKey, status: 'recorded' });
    expect(sent).toHaveLength(3);
    expect((await expectLedgerIsBalance(c.memberId)).balance).toBe(1500);
  });

  it('a provider that cannot be reached: the request’s charge is forgotten, the job’s is kept for its next run', async () => {
    const down = await unreachable();
    const c = await cardCharge(900);
    const refused = await chargeCard(down, c);
    expect(refused).toMatchObject({ ok: false, reason: 'unavailable' });
    expect(await chargesOf(c.memberId)).toEqual([]);
    // The process died after charging: the job finds the provider down, and keeps the charge.
    const charged = await chargeCard(wallet, c);
    expect(charged.ok).toBe(true);
    expect(await recoverCharges(down, 0)).toBe(0);
    expect(await chargesOf(c.memberId)).toMatchObject([{ status: 'pending' }]);
    expect((await walletState(db, c.memberId)).entries).toEqual([]);
    expect(await recoverCharges(wallet, 0)).toBe(1);
    expect((await expectLedgerIsBalance(c.memberId)).entries).toEqual([{ kind: 'top-up', amount: 900 }]);
  });

  it('a charge written down that never reached the provider: the job sends it, or drops it when the card declines', async () => {
    const ok = await cardCharge(400);
    const declined = await registerAndSignIn(app);
    await addCard(app, declined, CARDS.declined);
    const [card] = await queryRows<{ provider_ref: string }>(
      db,
      sql`select provider_ref from payment_methods where member_id = ${declined.memberId}`,
    );
    // The process died after writing the charge down, before calling the provider.
    const written = await db
      .insert(walletCharges)
      .values([
        { ...ok, currency: 'usd' },
        {
          ...ok,
          memberId: declined.memberId,
          providerKey: `test:${randomUUID()}`,
          providerRef: card!.provider_ref,
          currency: 'usd',
        },
      ])
      .returning({ id: walletCharges.id });
    for (const w of written) await age(w.id, '2 minutes');
    expect(await recoverCharges(wallet)).toBe(1);
    expect((await expectLedgerIsBalance(ok.memberId)).entries).toEqual([{ kind: 'top-up', amount: 400 }]);
    expect(await chargesOf(declined.memberId)).toEqual([]);
    expect((await walletState(db, declined.memberId)).entries).toEqual([]);
  });

  it('the request records the charge while the job is sending it: credited once, and the job counts none', async () => {
    const c = await cardCharge(600);
    const charged = await chargeCard(wallet, c);
    if (!charged.ok) throw new Error('not charged');
    await age(charged.chargeId, '2 minutes');
    // The job's call to the provider answers after the request, retried meanwhile, recorded it.
    const slow: ChargeContext = {
      ...wallet,
      provider: {
        ...wallet.provider,
        charge: async (req) => {
          const answer = await wallet.provider.charge(req);
          await record(c, charged);
          return answer;
        },
      },
    };
    expect(await recoverCharges(slow)).toBe(0);
    expect(await chargesOf(c.memberId)).toMatchObject([{ status: 'recorded', chargeRef: charged.chargeRef }]);
    expect((await expectLedgerIsBalance(c.memberId)).entries).toEqual([{ kind: 'top-up', amount: 600 }]);
  });

  it('the job leaves a charge its first minute, then takes them in the order they were written, a batch at a time', async () => {
    const c = await cardCharge(100);
    const a = await chargeCard(wallet, c);
    const b = await chargeCard(wallet, { ...c, providerKey: `${c.providerKey}:b`, amountCents: 200 });
    if (!a.ok || !b.ok) throw new Error('not charged');
    await age(a.chargeId, '30 seconds');
    expect(await recoverCharges(wallet)).toBe(0);
    // b, written after a, has been waiting longer.
    await age(a.chargeId, '2 minutes');
    await age(b.chargeId, '5 minutes');
    expect(await recoverCharges(wallet, 60_000, 1)).toBe(1);
    expect((await chargesOf(c.memberId)).map((r) => [r.id, r.status]).sort()).toEqual(
      [
        [a.chargeId, 'recorded'],
        [b.chargeId, 'pending'],
      ].sort(),
    );
    expect(await recoverCharges(wallet)).toBe(1);
    expect(await recoverCharges(wallet)).toBe(0);
    expect((await expectLedgerIsBalance(c.memberId)).balance).toBe(300);
  });

  it('a member that does not exist, or whose account is deleted: 404, and nothing written or sent', async () => {
    const { ctx, sent } = counting();
    const c = await cardCharge(300);
    const written = () => db.select().from(walletCharges).where(eq(walletCharges.providerKey, c.providerKey));
    await expect(chargeCard(ctx, { ...c, memberId: 2_000_000_000 })).rejects.toMatchObject({ statusCode: 404 });
    expect(await written()).toEqual([]);
    await db.update(members).set({ deletedAt: new Date() }).where(eq(members.id, c.memberId));
    await expect(chargeCard(ctx, c)).rejects.toMatchObject({ statusCode: 404 });
    expect(await written()).toEqual([]);
    expect(sent).toEqual([]);
  });

  /** A Quick Park start charge, pending, of a member's quote (the kind's rule: a quote), of that member or of none. */
  async function parkingCharge(memberId: 'member' | 'none'): Promise<WalletCharge> {
    const m = await registerAndSignIn(app);
    const q = await quote(app, m, { ZoneId: zone, VehicleId: await addVehicle(app, m), DurationMinutes: 60 });
    expect(q.statusCode, q.body).toBe(200);
    return db.transaction((tx) =>
      claimCharge(tx, 'usd', {
        memberId: memberId === 'member' ? m.memberId : null,
        kind: 'quick-park-start',
        providerKey: `test:${randomUUID()}`,
        amountCents: 250,
        description: 'test',
        providerRef: 'tok_test',
        customerRef: null,
        idempotencyKey: null,
        quoteId: q.json<Quote>().QuoteId,
      }),
    );
  }

  it('recordCharge: a charge that is not there, or not a wallet’s credit, is an error, and nothing is recorded', async () => {
    await expect(db.transaction((tx) => recordCharge(tx, 2_000_000_000, 'ch_x'))).rejects.toThrow(
      'wallet charge 2000000000 vanished',
    );
    for (const who of ['member', 'none'] as const) {
      const charge = await parkingCharge(who);
      await expect(db.transaction((tx) => recordCharge(tx, charge.id, 'ch_x'))).rejects.toThrow(
        `wallet charge ${charge.id} is not a credit of a wallet`,
      );
      expect(await keyOf(charge.id)).toMatchObject({ status: 'pending', chargeRef: null });
    }
  });

  it('dropPending removes a pending movement once, and never a recorded one', async () => {
    const pending = await parkingCharge('none');
    const recorded = await parkingCharge('none');
    await db
      .update(walletCharges)
      .set({ status: 'recorded', chargeRef: 'ch_r' })
      .where(eq(walletCharges.id, recorded.id));
    expect(await db.transaction((tx) => dropPending(tx, recorded.id))).toBe(false);
    expect(await keyOf(recorded.id)).toMatchObject({ status: 'recorded' });
    expect(await db.transaction((tx) => dropPending(tx, pending.id))).toBe(true);
    expect(await db.transaction((tx) => dropPending(tx, pending.id))).toBe(false);
    expect(await keyOf(pending.id)).toBeUndefined();
  });

  describe('the job’s recovery of another domain’s movements (a handler’s kinds)', () => {
    const answering: PaymentProvider = {
      ...wallet.provider,
      charge: async () => ({ ok: true, chargeRef: 'ch_stub', customerRef: null }),
    };
    /** Leaves only `ids` pending among the kind's rows (the other tests' are recorded), aged past the grace. */
    async function onlyPending(ids: number[]) {
      await db
        .update(walletCharges)
        .set({ status: 'recorded', chargeRef: 'ch_other' })
        .where(and(eq(walletCharges.kind, 'quick-park-start'), eq(walletCharges.status, 'pending')));
      for (const id of ids) {
        await db.update(walletCharges).set({ status: 'pending', chargeRef: null }).where(eq(walletCharges.id, id));
        await age(id, '2 minutes');
      }
    }

    it('a kind no handler is registered for is left alone', async () => {
      const charge = await parkingCharge('none');
      await onlyPending([charge.id]);
      expect(await recoverCharges({ ...wallet, provider: answering })).toBe(0);
      expect(await keyOf(charge.id)).toMatchObject({ status: 'pending' });
    });

    it('recorded by its request while the job sent it: the handler is not called, and the job counts none', async () => {
      const charge = await parkingCharge('none');
      await onlyPending([charge.id]);
      const recordedBy: number[] = [];
      const ctx: ChargeContext = {
        ...wallet,
        provider: {
          ...answering,
          charge: async (req) => {
            await db.transaction((tx) => markRecorded(tx, charge.id, 'ch_request'));
            return answering.charge(req);
          },
        },
        handlers: {
          'quick-park-start': { record: async (_tx, c) => recordedBy.push(c.id), release: async () => {} },
        },
      };
      expect(await recoverCharges(ctx)).toBe(0);
      expect(recordedBy).toEqual([]);
      expect(await keyOf(charge.id)).toMatchObject({ status: 'recorded', chargeRef: 'ch_request' });
    });

    it('one that cannot be recorded does not hold up the next: the next is recorded, then the error is thrown', async () => {
      const [a, b] = [await parkingCharge('none'), await parkingCharge('none')];
      await onlyPending([a!.id, b!.id]);
      const recordedBy: number[] = [];
      const ctx: ChargeContext = {
        ...wallet,
        provider: answering,
        handlers: {
          'quick-park-start': {
            record: async (_tx, c) => {
              if (c.id === a!.id) throw new Error('the session could not be opened');
              recordedBy.push(c.id);
            },
            release: async () => {},
          },
        },
      };
      await expect(recoverCharges(ctx)).rejects.toThrow('the session could not be opened');
      expect(recordedBy).toEqual([b!.id]);
      expect(await keyOf(a!.id)).toMatchObject({ status: 'pending' });
      expect(await keyOf(b!.id)).toMatchObject({ status: 'recorded', chargeRef: 'ch_stub' });
    });
  });

  it('otherChargePending finds another pending charge of the member, of the kind or key asked', async () => {
    const c = await cardCharge(100);
    const n = await cardCharge(100);
    const charge = async (of: CardCharge, providerKey: string, kind: CardCharge['kind']) => {
      const charged = await chargeCard(wallet, { ...of, providerKey, kind });
      if (!charged.ok) throw new Error('not charged');
      return charged;
    };
    const m = c.memberId;
    await record(c, await charge(c, `reload:${m}:0`, 'auto-reload'));
    await charge(c, `reload:${m}:1`, 'auto-reload');
    await charge(c, `subscribe:${m}:a`, 'top-up');
    await charge(n, `reload:${n.memberId}:1`, 'auto-reload');
    try {
      const asks = await db.transaction(async (tx) => {
        const ask = (memberId: number, key: string, of: Parameters<typeof otherChargePending>[3]) =>
          otherChargePending(tx, memberId, key, of);
        return [
          // Itself does not count; a recorded one neither.
          await ask(m, `reload:${m}:1`, { kind: 'auto-reload' }),
          await ask(m, `reload:${m}:2`, { kind: 'auto-reload' }),
          await ask(m, `subscribe:${m}:a`, { keyPrefix: 'subscribe:' }),
          await ask(m, `subscribe:${m}:b`, { keyPrefix: 'subscribe:' }),
          await ask(m, `addmoney:${m}:x`, { keyPrefix: 'addmoney:' }),
          await ask(n.memberId, `reload:${n.memberId}:2`, { kind: 'auto-reload' }),
          await ask(n.memberId, `subscribe:${n.memberId}:a`, { keyPrefix: 'subscribe:' }),
        ];
      });
      expect(asks).toEqual([false, true, false, true, false, true, false]);
    } finally {
      // Nothing pending left for the job's tests.
      await db.execute(sql`delete from wallet_charges where member_id in (${m}, ${n.memberId}) and status = 'pending'`);
    }
  });
});

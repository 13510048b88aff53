// Quick Park's card payments (parking/card-payments.ts), each function against the database: what a
// session charged (a start and an extension), the refunds Stop claims from them (newest first,
// never more than a charge has left), what sending them does when the provider gives back, refuses
// or cannot be reached at the first or a later one, and a card charge the bank declines. The
// provider is the sandbox, or a stand-in of it where a test needs a refusal or a customer.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { ParkingSession, Quote } from '@parkit/contract';
import { parkingCardPayments, parkingSessions, walletCharges } from '../../src/db/schema/index.ts';
import {
  cardChargePending,
  cardPaymentsOf,
  claimCardCharge,
  claimRefunds,
  releaseRefund,
  sendCardCharge,
  sendRefunds,
} from '../../src/parking/card-payments.ts';
import type { ChargeContext, PaymentProvider, WalletCharge } from '../../src/wallet/index.ts';
import { buildTestApp, MANY_REQUESTS } from '../helpers.ts';
import { addZone, verifiedGuest } from '../parking-helpers.ts';
import { sandboxCardToken } from './helpers.ts';

const { app, database } = await buildTestApp(MANY_REQUESTS, { decorations: true });
const db = database.db;
await addZone(db, '7801'); // $2.50/h

const post = (url: string, payload: Record<string, unknown>, token: string) =>
  app.inject({ method: 'POST', url: `/api/Parking/Guest/${url}`, payload, headers: { 'x-guest-token': token } });

/** A guest's session paid by card for an hour ($2.50), then extended by 30 minutes ($1.25): two charges. */
async function paidTwice(plate: string): Promise<{ sessionId: number; start: number; extension: number }> {
  const { token } = await verifiedGuest(app);
  const q = await post(
    'Quote',
    { ZoneNumber: '7801', PlateNumber: plate, PlateState: 'TX', DurationMinutes: 60 },
    token,
  );
  expect(q.statusCode, q.body).toBe(200);
  const started = await post(
    'Start',
    { QuoteId: q.json<Quote>().QuoteId, CardToken: await sandboxCardToken(app) },
    token,
  );
  expect(started.statusCode, started.body).toBe(201);
  const sessionId = started.json<ParkingSession>().SessionId;
  const eq2 = await post('ExtendQuote', { SessionId: sessionId, DurationMinutes: 30 }, token);
  expect(eq2.statusCode, eq2.body).toBe(200);
  const extended = await post('Extend', { QuoteId: eq2.json<Quote>().QuoteId }, token);
  expect(extended.statusCode, extended.body).toBe(200);
  const [start, extension] = await paymentsOf(sessionId);
  expect([start?.amountCents, extension?.amountCents]).toEqual([250, 125]);
  return { sessionId, start: start!.id, extension: extension!.id };
}

const paymentsOf = (sessionId: number) =>
  db
    .select()
    .from(parkingCardPayments)
    .where(eq(parkingCardPayments.sessionId, sessionId))
    .orderBy(parkingCardPayments.id);
const refunded = async (sessionId: number) => (await paymentsOf(sessionId)).map((p) => p.refundedCents);
const chargeRow = async (id: number) => (await db.select().from(walletCharges).where(eq(walletCharges.id, id)))[0];
const claim = (sessionId: number, cents: number, tag: string) =>
  db.transaction((tx) =>
    claimRefunds(tx, app.wallet, sessionId, cents, new Date(), (id) => `test-refund:${tag}:${id}`),
  );

/** The sandbox, with its refunds answered by `refund` from the `from`-th on (0: the first). */
function refunds(refund: PaymentProvider['refund'], from = 0): ChargeContext {
  const real = app.wallet.provider;
  let n = 0;
  return { ...app.wallet, provider: { ...real, refund: (req) => (n++ < from ? real.refund(req) : refund(req)) } };
}
const refused: PaymentProvider['refund'] = async () => ({ ok: false, reason: 'refused', message: 'Refund refused' });
const unreachable: PaymentProvider['refund'] = async () => ({ ok: false, reason: 'unavailable', message: 'Down' });

describe('a card-paid session’s charges', () => {
  it('are listed oldest first, the start then each extension', async () => {
    const { sessionId } = await paidTwice('CP 1');
    expect((await cardPaymentsOf(db, sessionId)).map(({ kind, cents }) => ({ kind, cents }))).toEqual([
      { kind: 'Start', cents: 250 },
      { kind: 'Extension', cents: 125 },
    ]);
    expect(await cardPaymentsOf(db, sessionId + 1000)).toEqual([]);
  });
});

describe('claimRefunds', () => {
  it('claims nothing for no money', async () => {
    const { sessionId } = await paidTwice('CP 2');
    expect(await claim(sessionId, 0, 'zero')).toEqual([]);
    expect(await refunded(sessionId)).toEqual([0, 0]);
  });

  it('takes from the newest charge first, never more than a charge has left, and no more than asked', async () => {
    const { sessionId, start, extension } = await paidTwice('CP 3');
    const [first, ...none] = await claim(sessionId, 50, 'a');
    expect(none).toEqual([]);
    expect(first).toMatchObject({
      kind: 'quick-park-refund',
      status: 'pending',
      amountCents: 50,
      cardPaymentId: extension,
      providerKey: `test-refund:a:${extension}`,
      description: `ParkIt refund of session ${sessionId}`,
      memberId: null,
    });
    expect(await refunded(sessionId)).toEqual([0, 50]);
    // 75 left on the extension, then the start.
    const second = await claim(sessionId, 100, 'b');
    expect(second.map((r) => [r.cardPaymentId, r.amountCents])).toEqual([
      [extension, 75],
      [start, 25],
    ]);
    expect(await refunded(sessionId)).toEqual([25, 125]);
    // The extension has nothing left: it is passed over, not refunded by 0.
    const third = await claim(sessionId, 500, 'c');
    expect(third.map((r) => [r.cardPaymentId, r.amountCents])).toEqual([[start, 225]]);
    expect(await refunded(sessionId)).toEqual([250, 125]);
    expect(await claim(sessionId, 10, 'd')).toEqual([]);
  });
});

describe('sendRefunds', () => {
  it('gives each back and records it with the provider’s reference', async () => {
    const { sessionId } = await paidTwice('CP 4');
    const claimed = await claim(sessionId, 200, 'ok');
    expect(await sendRefunds(app.wallet, claimed)).toEqual({ ok: true });
    for (const r of claimed) {
      const row = await chargeRow(r.id);
      expect(row).toMatchObject({ status: 'recorded' });
      expect(row!.chargeRef).toMatch(/^re_sandbox_/);
    }
  });

  it('refused at the first: answers 502 with every refund, for the caller to release, and records none', async () => {
    const { sessionId } = await paidTwice('CP 5');
    const claimed = await claim(sessionId, 200, 'no');
    expect(await sendRefunds(refunds(refused), claimed)).toEqual({
      ok: false,
      status: 502,
      message: 'Refund refused',
      refused: claimed,
    });
    for (const r of claimed) expect(await chargeRow(r.id)).toMatchObject({ status: 'pending' });
  });

  it('unreachable at the first: answers 503', async () => {
    const { sessionId } = await paidTwice('CP 6');
    const claimed = await claim(sessionId, 200, 'down');
    expect(await sendRefunds(refunds(unreachable), claimed)).toMatchObject({ ok: false, status: 503, message: 'Down' });
  });

  it('refused after one was given back: the stop stands, the refused share is released', async () => {
    const { sessionId } = await paidTwice('CP 7');
    await db.update(parkingSessions).set({ refundedCents: 200 }).where(eq(parkingSessions.id, sessionId));
    const [given, later] = await claim(sessionId, 200, 'half');
    expect(await sendRefunds(refunds(refused, 1), [given!, later!])).toEqual({ ok: true });
    expect(await chargeRow(given!.id)).toMatchObject({ status: 'recorded' });
    expect(await chargeRow(later!.id)).toBeUndefined();
    // The extension's 125 was given back; the start's 75 is no longer counted, on it nor on the session.
    expect(await refunded(sessionId)).toEqual([0, 125]);
    const [s] = await db.select().from(parkingSessions).where(eq(parkingSessions.id, sessionId));
    expect(s!.refundedCents).toBe(125);
  });

  it('unreachable after one was given back: the stop stands, the rest left pending for the wallet job', async () => {
    const { sessionId } = await paidTwice('CP 8');
    const [given, later] = await claim(sessionId, 200, 'later');
    expect(await sendRefunds(refunds(unreachable, 1), [given!, later!])).toEqual({ ok: true });
    expect(await chargeRow(given!.id)).toMatchObject({ status: 'recorded' });
    expect(await chargeRow(later!.id)).toMatchObject({ status: 'pending' });
    expect(await refunded(sessionId)).toEqual([75, 125]);
  });
});

describe('releaseRefund', () => {
  it('uncounts a refused refund on its charge and on its session, the session never below 0', async () => {
    const { sessionId } = await paidTwice('CP 9');
    await db.update(parkingSessions).set({ refundedCents: 30 }).where(eq(parkingSessions.id, sessionId));
    const [r] = await claim(sessionId, 50, 'rel');
    await db.transaction((tx) => releaseRefund(tx, r!));
    expect(await refunded(sessionId)).toEqual([0, 0]);
    const [s] = await db.select().from(parkingSessions).where(eq(parkingSessions.id, sessionId));
    expect(s!.refundedCents).toBe(0);
  });

  it('does nothing for a refund of no charge, or of a charge that is gone', async () => {
    const { sessionId } = await paidTwice('CP 10');
    await db.update(parkingSessions).set({ refundedCents: 40 }).where(eq(parkingSessions.id, sessionId));
    const [r] = await claim(sessionId, 40, 'gone');
    await db.transaction((tx) => releaseRefund(tx, { ...r!, cardPaymentId: null }));
    await db.transaction((tx) => releaseRefund(tx, { ...r!, cardPaymentId: 2_000_000_000 }));
    expect(await refunded(sessionId)).toEqual([0, 40]);
    const [s] = await db.select().from(parkingSessions).where(eq(parkingSessions.id, sessionId));
    expect(s!.refundedCents).toBe(40);
  });
});

describe('a card charge', () => {
  /** A start charge claimed for a new quote of a new guest (pending), and that quote. */
  async function claimed(plate: string, token = 'tok_unused'): Promise<{ charge: WalletCharge; quoteId: string }> {
    const g = await verifiedGuest(app);
    const q = await post(
      'Quote',
      { ZoneNumber: '7801', PlateNumber: plate, PlateState: 'TX', DurationMinutes: 60 },
      g.token,
    );
    const quoteId = q.json<Quote>().QuoteId;
    const charge = await db.transaction((tx) =>
      claimCardCharge(tx, app.wallet, {
        kind: 'quick-park-start',
        providerKey: `test-charge:${quoteId}`,
        amountCents: 250,
        description: 'test',
        providerRef: token,
        quoteId,
      }),
    );
    return { charge, quoteId };
  }
  const pending = (kind: 'quick-park-start' | 'quick-park-extend', quoteId: string) =>
    db.transaction((tx) => cardChargePending(tx, kind, (q) => eq(q.id, quoteId)));
  const released: number[] = [];
  const release = async (_tx: unknown, c: WalletCharge) => void released.push(c.id);

  it('is pending for its quote until recorded, and only for its kind', async () => {
    const { charge, quoteId } = await claimed('CP 11');
    expect(await pending('quick-park-start', quoteId)).toBe(true);
    expect(await pending('quick-park-extend', quoteId)).toBe(false);
    await db.update(walletCharges).set({ status: 'recorded' }).where(eq(walletCharges.id, charge.id));
    expect(await pending('quick-park-start', quoteId)).toBe(false);
  });

  it('charged: answers the provider’s reference and the customer it saved the card under', async () => {
    const { charge } = await claimed('CP 12', await sandboxCardToken(app));
    expect(await sendCardCharge(app.wallet, charge, release)).toEqual({
      chargeRef: expect.stringMatching(/^ch_sandbox_/),
      customerRef: null,
    });
    const saving: ChargeContext = {
      ...app.wallet,
      provider: { ...app.wallet.provider, charge: async () => ({ ok: true, chargeRef: 'ch_x', customerRef: 'cus_x' }) },
    };
    expect(await sendCardCharge(saving, charge, release)).toEqual({ chargeRef: 'ch_x', customerRef: 'cus_x' });
    expect(released).toEqual([]);
  });

  it('declined: 402 with the bank’s reason on the card field, and released', async () => {
    const { charge } = await claimed('CP 13');
    const declining: ChargeContext = {
      ...app.wallet,
      provider: {
        ...app.wallet.provider,
        charge: async () => ({ ok: false, reason: 'declined', message: 'Your card was declined.' }),
      },
    };
    await expect(sendCardCharge(declining, charge, release)).rejects.toMatchObject({
      statusCode: 402,
      message: 'Your card was declined.',
      errors: [{ field: 'CardToken', message: 'Your card was declined.' }],
    });
    expect(released).toEqual([charge.id]);
    expect(await chargeRow(charge.id)).toBeUndefined();
  });

  it('the provider unreachable: 503, and released', async () => {
    const { charge } = await claimed('CP 14');
    const down: ChargeContext = {
      ...app.wallet,
      provider: { ...app.wallet.provider, charge: async () => ({ ok: false, reason: 'unavailable', message: 'Down' }) },
    };
    await expect(sendCardCharge(down, charge, release)).rejects.toMatchObject({ statusCode: 503, message: 'Down' });
    expect(await chargeRow(charge.id)).toBeUndefined();
  });
});

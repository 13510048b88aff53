// Paying a citation or a permit by a saved card (docs/citations.md#the-driver,
// docs/permits.md#drivers): the card is charged for exactly the amount through wallet/charges.ts,
// the charge is credited to the wallet and the payment debited in one transaction (balance
// unchanged); the Idempotency-Key replays without a second charge; a decline changes nothing; a
// crash between charge and record is credited by the wallet job; wallet and card payments at once
// pay once, ledger == balance. Runs on PGlite and on PostgreSQL.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Citation, Permit, PermitType } from '@parkit/contract';
import { paymentMethods, walletCharges } from '../../../src/db/schema/index.ts';
import { chargeCard, recoverCharges } from '../../../src/wallet/index.ts';
import { concurrently, expectJsonNo5xx, statusCounts } from '../../concurrency.ts';
import { createViolation, issueCitation } from '../../citation-helpers.ts';
import { as, registerAndSignIn, type SignedIn } from '../../helpers.ts';
import { twoOperators } from '../../operator-helpers.ts';
import { addVehicle, addZone, credit, walletState } from '../../parking-helpers.ts';
import { addCard, CARDS, walletContext } from '../../wallet/helpers.ts';

const { app, db, A, staff } = await twoOperators('Card Pay City B', ['manager', 'officer'], {
  decorations: true,
});
const zoneId = await addZone(db, 'CARD1');
const wallet = walletContext(db);

let plates = 0;
const newPlate = () => `CP${process.pid % 100}X${++plates}`;

const post = (who: SignedIn, url: string, payload?: object, headers: Record<string, string> = {}) =>
  as(app, who, { method: 'POST', url, ...(payload ? { payload } : {}), headers });
const payCitation = (who: SignedIn, id: number, body: object, key = randomUUID()) =>
  post(who, `/api/Citations/${id}/Pay`, body, { 'idempotency-key': key });
const payPermit = (who: SignedIn, id: number, body: object, key = randomUUID()) =>
  post(who, `/api/Permits/${id}/Pay`, body, { 'idempotency-key': key });
const chargesOf = (memberId: number) => db.select().from(walletCharges).where(eq(walletCharges.memberId, memberId));

const violation = await createViolation(app, staff.manager, A, 'CARD');

const cited = (plate: string): Promise<Citation> =>
  issueCitation(app, staff.officer, A, {
    zoneId,
    plate,
    violationId: violation.ViolationId,
    location: 'Outside 1 Card St',
  });

/** A driver with a saved card (the default), `cents` in the wallet and a cited vehicle. */
async function citedDriver(card: string = CARDS.ok, cents = 0) {
  const driver = await registerAndSignIn(app);
  if (cents > 0) await credit(db, driver.memberId, cents);
  const cardId = await addCard(app, driver, card, true);
  const plate = newPlate();
  await addVehicle(app, driver, plate);
  return { driver, cardId, citation: await cited(plate) };
}

describe('paying a citation by card', () => {
  it('charges the card the amount due, the ledger shows the charge in and the payment out; the key replays', async () => {
    const { driver, cardId, citation } = await citedDriver(CARDS.ok, 300);
    const key = randomUUID();
    const res = await payCitation(driver, citation.CitationId, { PaymentMethodId: cardId }, key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ CitationId: citation.CitationId, Amount: 25, Balance: 3 });
    const again = await payCitation(driver, citation.CitationId, { PaymentMethodId: cardId }, key);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    const charges = await chargesOf(driver.memberId);
    expect(charges.map((c) => [c.status, c.amountCents])).toEqual([['recorded', 2500]]);
    const w = await walletState(db, driver.memberId);
    expect(w.entries.map((e) => [e.kind, Number(e.amount)])).toEqual([
      ['adjustment', 300],
      ['top-up', 2500],
      ['citation', -2500],
    ]);
    expect(w.ledger).toBe(w.balance);
    expect(w.balance).toBe(300);
    const after = (await as(app, driver, { method: 'GET', url: `/api/Citations/${citation.CitationId}` })).json();
    expect(after).toMatchObject({ Status: 'paid', AmountPaid: 25, AmountDue: 0 });
    // Paid: a second payment by card charges nothing.
    expect((await payCitation(driver, citation.CitationId, { PaymentMethodId: cardId })).statusCode).toBe(409);
    expect(await chargesOf(driver.memberId)).toHaveLength(1);
    // The same key with the wallet instead of the card is another request.
    expect((await payCitation(driver, citation.CitationId, {}, key)).statusCode).toBe(422);
  });

  it('a declined card is 402 and changes nothing', async () => {
    const { driver, cardId, citation } = await citedDriver(CARDS.declined, 5_000);
    const res = await payCitation(driver, citation.CitationId, { PaymentMethodId: cardId });
    expect(res.statusCode, res.body).toBe(402);
    expect(res.json()).toMatchObject({ errors: [{ field: 'PaymentMethodId' }] });
    expect(await chargesOf(driver.memberId)).toHaveLength(0);
    const w = await walletState(db, driver.memberId);
    expect(w.entries).toHaveLength(1);
    expect(w.balance).toBe(5_000);
    const after = (await as(app, driver, { method: 'GET', url: `/api/Citations/${citation.CitationId}` })).json();
    expect(after).toMatchObject({ Status: 'issued', AmountPaid: 0 });
  });

  it('another member’s citation or card is 404 and charges nothing', async () => {
    const { driver, cardId, citation } = await citedDriver();
    const other = await registerAndSignIn(app);
    const otherCard = await addCard(app, other, CARDS.ok, true);
    expect((await payCitation(other, citation.CitationId, { PaymentMethodId: otherCard })).statusCode).toBe(404);
    expect((await payCitation(driver, citation.CitationId, { PaymentMethodId: otherCard })).statusCode).toBe(404);
    expect((await payCitation(other, citation.CitationId, { PaymentMethodId: cardId })).statusCode).toBe(404);
    expect(await chargesOf(other.memberId)).toHaveLength(0);
    expect(await chargesOf(driver.memberId)).toHaveLength(0);
    expect((await payCitation(driver, citation.CitationId, { PaymentMethodId: 'x' })).statusCode).toBe(400);
    expect((await payCitation(driver, citation.CitationId, { PaymentMethodId: cardId, Extra: 1 })).statusCode).toBe(
      400,
    );
  });

  it('wallet and card payments of one citation at once pay it once; ledger == balance', async () => {
    const { driver, cardId, citation } = await citedDriver(CARDS.ok, 5_000);
    const responses = await concurrently(8, (i) =>
      payCitation(driver, citation.CitationId, i % 2 === 0 ? {} : { PaymentMethodId: cardId }),
    );
    expectJsonNo5xx(responses);
    expect(statusCounts(responses)[200]).toBe(1);
    const w = await walletState(db, driver.memberId);
    expect(w.ledger).toBe(w.balance);
    expect(w.entries.filter((e) => e.kind === 'citation')).toHaveLength(1);
    // A card charged for a payment another request made first stays in the wallet, never pending.
    const charges = await chargesOf(driver.memberId);
    expect(charges.every((c) => c.status === 'recorded')).toBe(true);
    const charged = charges.reduce((s, c) => s + c.amountCents, 0);
    expect(w.entries.filter((e) => e.kind === 'top-up').reduce((s, e) => s + Number(e.amount), 0)).toBe(charged);
    expect(w.balance).toBe(5_000 + charged - 2_500);
  });

  it('a card charged for a citation the wallet paid meanwhile is credited to the wallet at once', async () => {
    const { driver, cardId, citation } = await citedDriver(CARDS.ok, 5_000);
    // The real provider charges; right after, before the record, the wallet pays the same citation.
    const provider = app.wallet.provider;
    const charge = provider.charge.bind(provider);
    let walletPay: Promise<{ statusCode: number }> | null = null;
    provider.charge = async (req) => {
      const result = await charge(req);
      walletPay ??= payCitation(driver, citation.CitationId, {});
      await walletPay;
      return result;
    };
    try {
      const res = await payCitation(driver, citation.CitationId, { PaymentMethodId: cardId });
      expect(res.statusCode, res.body).toBe(409);
    } finally {
      provider.charge = charge;
    }
    expect((await walletPay!).statusCode).toBe(200);
    expect((await chargesOf(driver.memberId)).map((c) => [c.status, c.amountCents])).toEqual([['recorded', 2500]]);
    const w = await walletState(db, driver.memberId);
    expect(w.entries.map((e) => [e.kind, Number(e.amount)])).toEqual([
      ['adjustment', 5000],
      ['citation', -2500],
      ['top-up', 2500],
    ]);
    expect(w.ledger).toBe(w.balance);
    expect(w.balance).toBe(5_000);
  });

  it('a charge whose request died before the record is credited to the wallet by the wallet job', async () => {
    const { driver, citation } = await citedDriver();
    const [card] = await db
      .select({ providerRef: paymentMethods.providerRef })
      .from(paymentMethods)
      .where(eq(paymentMethods.memberId, driver.memberId));
    const key = randomUUID();
    const sent = await chargeCard(wallet, {
      memberId: driver.memberId,
      providerKey: `pay:citation:${citation.CitationId}:${driver.memberId}:${key}`,
      kind: 'top-up',
      amountCents: 2_500,
      description: 'ParkIt citation',
      providerRef: card!.providerRef,
      customerRef: null,
      idempotencyKey: key,
    });
    expect(sent.ok).toBe(true);
    await db
      .update(walletCharges)
      .set({ createdAt: sql`now() - interval '2 minutes'` as unknown as Date })
      .where(eq(walletCharges.memberId, driver.memberId));
    expect(await recoverCharges(wallet)).toBeGreaterThanOrEqual(1);
    const w = await walletState(db, driver.memberId);
    expect(w.entries.map((e) => [e.kind, Number(e.amount)])).toEqual([['top-up', 2500]]);
    expect(w.ledger).toBe(w.balance);
    // The wallet now pays it.
    expect((await payCitation(driver, citation.CitationId, {})).statusCode).toBe(200);
  });
});

describe('paying a permit by card', () => {
  const makeType = async () => {
    const res = await post(staff.manager, `/api/Operator/${A}/PermitTypes`, {
      Kind: 'business',
      Name: `Card business ${randomUUID().slice(0, 4)}`,
      ZoneIds: [zoneId],
      ValidMonths: 12,
      PriceCents: 1_000,
      ProofRequired: false,
      MaxPlates: 1,
      VisitorDaysPerMonth: 0,
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<PermitType>();
  };
  async function approvedPermit(who: SignedIn): Promise<Permit> {
    const t = await makeType();
    const p = (await post(who, '/api/Permits/Apply', { TypeId: t.Id, Plates: [newPlate()] })).json<Permit>();
    expect((await post(staff.manager, `/api/Operator/${A}/Permits/${p.Id}/Approve`)).statusCode).toBe(200);
    return p;
  }

  it('charges the price, activates the permit, replays the key, and the balance is unchanged', async () => {
    const driver = await registerAndSignIn(app);
    const cardId = await addCard(app, driver, CARDS.ok, true);
    const p = await approvedPermit(driver);
    const key = randomUUID();
    const res = await payPermit(driver, p.Id, { PaymentMethodId: cardId }, key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Permit>().Status).toBe('active');
    const again = await payPermit(driver, p.Id, { PaymentMethodId: cardId }, key);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect((await chargesOf(driver.memberId)).map((c) => c.amountCents)).toEqual([1_000]);
    const w = await walletState(db, driver.memberId);
    expect(w.entries.map((e) => [e.kind, Number(e.amount)])).toEqual([
      ['top-up', 1000],
      ['permit', -1000],
    ]);
    expect(w.balance).toBe(0);
    expect(w.ledger).toBe(0);
  });

  it('a declined card changes nothing; another member’s permit is 404', async () => {
    const driver = await registerAndSignIn(app);
    const cardId = await addCard(app, driver, CARDS.declined, true);
    const p = await approvedPermit(driver);
    expect((await payPermit(driver, p.Id, { PaymentMethodId: cardId })).statusCode).toBe(402);
    expect(await chargesOf(driver.memberId)).toHaveLength(0);
    const list = (await as(app, driver, { method: 'GET', url: '/api/Permits/List' })).json<Permit[]>();
    expect(list.find((x) => x.Id === p.Id)?.Status).toBe('approved');
    const other = await registerAndSignIn(app);
    const otherCard = await addCard(app, other, CARDS.ok, true);
    expect((await payPermit(other, p.Id, { PaymentMethodId: otherCard })).statusCode).toBe(404);
    expect(await chargesOf(other.memberId)).toHaveLength(0);
  });

  it('card and wallet payments of one permit at once pay it once; ledger == balance', async () => {
    const driver = await registerAndSignIn(app);
    await credit(db, driver.memberId, 3_000);
    const cardId = await addCard(app, driver, CARDS.ok, true);
    const p = await approvedPermit(driver);
    const responses = await concurrently(6, (i) => payPermit(driver, p.Id, i % 2 ? { PaymentMethodId: cardId } : {}));
    expectJsonNo5xx(responses);
    expect(statusCounts(responses)[200]).toBe(1);
    const w = await walletState(db, driver.memberId);
    expect(w.ledger).toBe(w.balance);
    expect(w.entries.filter((e) => e.kind === 'permit')).toHaveLength(1);
    const charged = (await chargesOf(driver.memberId)).reduce((s, c) => s + c.amountCents, 0);
    expect(w.balance).toBe(3_000 + charged - 1_000);
  });
});

// A citation paid by card and then cancelled (a contest's "cancelled", or the automatic cancellation
// when a right is found) is refunded to that card through the provider, after the cancellation's
// COMMIT (docs/citations.md#refunds-to-the-card); a refusal credits the wallet and says so. Stripe is the local
// stand-in (fake-stripe.ts). PGlite and PostgreSQL.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import type { Citation } from '@parkit/contract';
import { cancelCoveredCitations } from '../../../src/citations/index.ts';
import { queryRows } from '../../../src/db/client.ts';
import { concurrently, count } from '../../concurrency.ts';
import { createViolation, issueCitation, staffPost } from '../../citation-helpers.ts';
import { registerAndSignIn, type SignedIn } from '../../helpers.ts';
import { twoOperators } from '../../operator-helpers.ts';
import { addVehicle, addZone, credit, walletState } from '../../parking-helpers.ts';
import { addSession } from '../../support/history-fixtures.ts';
import { startFakeStripe } from '../../wallet/fake-stripe.ts';

const fake = await startFakeStripe();
afterAll(() => fake.close());
const {
  app,
  db,
  A,
  staff: { manager, officer },
} = await twoOperators('Card Refund City B', ['manager', 'officer'], {
  decorations: true,
  config: { STRIPE_SECRET_KEY: 'sk_test_fake', STRIPE_PUBLISHABLE_KEY: 'pk_test_fake', STRIPE_API_URL: fake.url },
});
const zoneId = await addZone(db, 'CR1');

let plates = 0;
const newPlate = () => `CR${process.pid % 100}X${++plates}`;
const post = staffPost(app);

const violation = await createViolation(app, manager, A, 'CR');

const cited = (plate: string): Promise<Citation> =>
  issueCitation(app, officer, A, { zoneId, plate, violationId: violation.ViolationId, location: 'Outside 5 Card St' });

/** The browser's part of saving a card at Stripe (a SetupIntent confirmed), then our Add. */
async function saveCard(who: SignedIn, pm = 'pm_card_visa'): Promise<number> {
  const si = await post(who, '/api/PaymentMethods/SetupIntent');
  expect(si.statusCode, si.body).toBe(200);
  const secret = si.json<{ ClientSecret: string }>().ClientSecret;
  await fetch(`${fake.url}/test/confirm_setup`, {
    method: 'POST',
    body: new URLSearchParams({ setup_intent: secret.split('_secret_')[0]!, payment_method: pm }),
  });
  const add = await post(who, '/api/PaymentMethods/Add', { Token: pm });
  expect(add.statusCode, add.body).toBe(201);
  return add.json<{ PaymentMethodId: number }>().PaymentMethodId;
}

/** A driver with a saved card, a vehicle, and a citation of its plate paid by that card. */
async function paidByCard() {
  const driver = await registerAndSignIn(app);
  const cardId = await saveCard(driver);
  const plate = newPlate();
  const vehicleId = await addVehicle(app, driver, plate);
  const c = await cited(plate);
  const paid = await post(
    driver,
    `/api/Citations/${c.CitationId}/Pay`,
    { PaymentMethodId: cardId },
    { 'idempotency-key': randomUUID() },
  );
  expect(paid.statusCode, paid.body).toBe(200);
  return { driver, plate, vehicleId, c };
}

/** The session becomes known as having covered the citation's moment (an amend, a late sync). */
async function sessionCovering(c: Citation, driver: SignedIn, vehicleId: number) {
  const id = await addSession(db, {
    memberId: driver.memberId,
    operatorId: A,
    zoneId,
    vehicleId,
    plate: c.PlateNumber,
    startedAt: new Date(),
  });
  // Written after the insert: a new session's trigger moves its start past the citations of its plate.
  await db.execute(sql`update parking_sessions
    set started_at = ${c.IssuedAt}::timestamptz - interval '10 minutes',
        ends_at = ${c.IssuedAt}::timestamptz + interval '50 minutes',
        ended_at = ${c.IssuedAt}::timestamptz + interval '50 minutes'
    where id = ${id}`);
}

/** The refunds Stripe was asked for, of the citation's charge (by our provider key). */
const refundsAsked = (citationId: number) =>
  fake.requests.filter(
    (r) =>
      r.method === 'POST' && r.path === '/v1/refunds' && r.idempotencyKey?.startsWith(`citation-refund:${citationId}:`),
  );
const lastSms = async (phone: string) =>
  (
    await queryRows<{ body: string }>(
      db,
      sql`select body from outbox where recipient = ${phone} order by id desc limit 1`,
    )
  )[0]?.body;
const refundRows = (citationId: number) =>
  queryRows<{ status: string; amount: number }>(
    db,
    sql`select r.status, r.amount_cents as amount from wallet_refunds r
        where r.provider_key like ${`citation-refund:${citationId}:%`}`,
  );

/**
 * What went back went to the card, once: `cents` (the whole 25.00 of a cancellation, or a
 * reduction's overpayment) came into the wallet and went out to the card; nothing stays.
 */
async function expectRefundedToCard(driver: SignedIn, c: Citation, cents = 2500) {
  const asked = refundsAsked(c.CitationId);
  expect(new Set(asked.map((r) => r.idempotencyKey)).size).toBe(1);
  expect(asked.map((r) => r.form.get('amount'))).toEqual(asked.map(() => String(cents)));
  expect(await refundRows(c.CitationId)).toEqual([{ status: 'done', amount: cents }]);
  const w = await walletState(db, driver.memberId);
  expect(w.ledger).toBe(w.balance);
  expect(w.balance).toBe(0);
  expect(w.entries.map((e) => [e.kind, Number(e.amount)])).toEqual([
    ['top-up', 2500],
    ['citation', -2500],
    ['citation-refund', cents],
    ['card-refund', -cents],
  ]);
}

describe('a card-paid citation, cancelled', () => {
  it('by a contest’s decision: one refund of the amount paid to the card, the driver told the card', async () => {
    const { driver, c } = await paidByCard();
    const contest = await post(driver, `/api/Citations/${c.CitationId}/Contest`, { Reason: 'I had paid' });
    expect(contest.statusCode, contest.body).toBeLessThan(300);
    const res = await post(manager, `/api/Operator/${A}/Citations/${c.CitationId}/Decide`, { Decision: 'cancelled' });
    expect(res.statusCode, res.body).toBe(200);
    await expectRefundedToCard(driver, c);
    expect(await lastSms(driver.phone)).toContain('25.00 goes back to your card ending 4242');
    const [audit] = await queryRows<{ after: { refundTo: string } }>(
      db,
      sql`select after from audit_log where entity_id = ${String(c.CitationId)} and action = 'citation.decide'`,
    );
    expect(audit?.after.refundTo).toBe('card:4242');
  });

  it('by the automatic cancellation (a right found): one refund to the card; a second pass refunds nothing', async () => {
    const { driver, vehicleId, c } = await paidByCard();
    await sessionCovering(c, driver, vehicleId);
    expect(await cancelCoveredCitations(app.wallet, new Date(), { plates: [c.PlateNumber] })).toBe(1);
    expect(await cancelCoveredCitations(app.wallet, new Date(), { plates: [c.PlateNumber] })).toBe(0);
    await expectRefundedToCard(driver, c);
    expect(await lastSms(driver.phone)).toContain('goes back to your card ending 4242');
  });

  it('race: a decision and two job passes at once cancel once and refund the card once', async () => {
    for (let round = 0; round < 2; round++) {
      const { driver, vehicleId, c } = await paidByCard();
      await post(driver, `/api/Citations/${c.CitationId}/Contest`, { Reason: 'I had paid' });
      await sessionCovering(c, driver, vehicleId);
      const out = await concurrently(3, (i) =>
        i === 0
          ? post(manager, `/api/Operator/${A}/Citations/${c.CitationId}/Decide`, { Decision: 'cancelled' }).then(
              (r) => r.statusCode,
            )
          : cancelCoveredCitations(app.wallet, new Date(), { plates: [c.PlateNumber] }),
      );
      // The decision wins (200) or finds the citation cancelled already (409).
      expect([200, 409]).toContain(out[0]);
      expect(
        await count(
          db,
          sql`select count(*) as n from audit_log where entity_id = ${String(c.CitationId)}
              and action in ('citation.decide', 'citation.auto-cancel')`,
        ),
      ).toBe(1);
      await expectRefundedToCard(driver, c);
    }
  });

  it('a refund the card refuses is credited to the wallet, audited and told', async () => {
    const { driver, c } = await paidByCard();
    // The charge is refunded at Stripe already (by hand at the dashboard): Stripe refuses ours.
    const intents = await queryRows<{ ref: string }>(
      db,
      sql`select charge_ref as ref from wallet_charges where member_id = ${driver.memberId}`,
    );
    const byHand = await fetch(`${fake.url}/v1/refunds`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk_test_fake', 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ payment_intent: intents[0]!.ref }),
    });
    expect(byHand.status).toBe(200);
    await post(driver, `/api/Citations/${c.CitationId}/Contest`, { Reason: 'I had paid' });
    const res = await post(manager, `/api/Operator/${A}/Citations/${c.CitationId}/Decide`, { Decision: 'cancelled' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await refundRows(c.CitationId)).toEqual([{ status: 'failed', amount: 2500 }]);
    const w = await walletState(db, driver.memberId);
    expect(w.ledger).toBe(w.balance);
    expect(w.balance).toBe(2500);
    expect(
      await count(
        db,
        sql`select count(*) as n from audit_log where entity_id = ${String(c.CitationId)} and action = 'citation.card-refund-refused'`,
      ),
    ).toBe(1);
    expect(await lastSms(driver.phone)).toContain('your card ending 4242 refused the refund of 25.00');
  });
});

const decide = (id: number, body: object, key?: string) =>
  post(
    manager,
    `/api/Operator/${A}/Citations/${id}/Decide`,
    { Note: '', ...body },
    key ? { 'idempotency-key': key } : {},
  );
const contest = async (driver: SignedIn, c: Citation) => {
  const res = await post(driver, `/api/Citations/${c.CitationId}/Contest`, { Reason: 'The sign was hidden' });
  expect(res.statusCode, res.body).toBeLessThan(300);
};
const auditCount = (c: Citation, action: string) =>
  count(db, sql`select count(*) as n from audit_log where entity_id = ${String(c.CitationId)} and action = ${action}`);

/** Stripe refunds the citation's charge in full by hand (the dashboard): a refund of ours is then refused. */
async function refundedByHand(driver: SignedIn) {
  const [intent] = await queryRows<{ ref: string }>(
    db,
    sql`select charge_ref as ref from wallet_charges where member_id = ${driver.memberId}`,
  );
  const res = await fetch(`${fake.url}/v1/refunds`, {
    method: 'POST',
    headers: { authorization: 'Bearer sk_test_fake', 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ payment_intent: intent!.ref }),
  });
  expect(res.status).toBe(200);
}

describe('a card-paid citation, reduced', () => {
  it('gives the overpayment back to the card (a partial refund), once per Idempotency-Key; the driver told the card', async () => {
    const { driver, c } = await paidByCard();
    await contest(driver, c);
    const key = randomUUID();
    const res = await decide(c.CitationId, { Decision: 'reduced', NewFine: '15.00' }, key);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<Citation>()).toMatchObject({ Status: 'paid', Fine: 15 });
    const again = await decide(c.CitationId, { Decision: 'reduced', NewFine: '15.00' }, key);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    await expectRefundedToCard(driver, c, 1000); // 25.00 reduced to 15.00
    expect(await lastSms(driver.phone)).toContain('the fine is now 15.00 and 10.00 goes back to your card ending 4242');
    const [audit] = await queryRows<{ after: { refundTo: string; refundedCents: number } }>(
      db,
      sql`select after from audit_log where entity_id = ${String(c.CitationId)} and action = 'citation.decide'`,
    );
    expect(audit?.after).toMatchObject({ refundTo: 'card:4242', refundedCents: 1000 });
  });

  it('a wallet-paid citation’s overpayment stays in the wallet; Stripe is not asked', async () => {
    const driver = await registerAndSignIn(app);
    await credit(db, driver.memberId, 2500);
    const plate = newPlate();
    await addVehicle(app, driver, plate);
    const c = await cited(plate);
    const paid = await post(driver, `/api/Citations/${c.CitationId}/Pay`, {}, { 'idempotency-key': randomUUID() });
    expect(paid.statusCode, paid.body).toBe(200);
    await contest(driver, c);
    const res = await decide(c.CitationId, { Decision: 'reduced', NewFine: '15.00' }, randomUUID());
    expect(res.statusCode, res.body).toBe(200);
    expect(refundsAsked(c.CitationId)).toEqual([]);
    const w = await walletState(db, driver.memberId);
    expect(w.ledger).toBe(w.balance);
    expect(w.balance).toBe(1000);
    expect(w.entries.map((e) => e.kind).slice(-2)).toEqual(['citation', 'citation-refund']);
    expect(await lastSms(driver.phone)).toContain('the fine is now 15.00 and 10.00 is back in your wallet');
  });

  it('an overpayment the card refuses is credited to the wallet, audited and told', async () => {
    const { driver, c } = await paidByCard();
    await refundedByHand(driver);
    await contest(driver, c);
    const res = await decide(c.CitationId, { Decision: 'reduced', NewFine: '15.00' }, randomUUID());
    expect(res.statusCode, res.body).toBe(200);
    expect(await refundRows(c.CitationId)).toEqual([{ status: 'failed', amount: 1000 }]);
    const w = await walletState(db, driver.memberId);
    expect(w.ledger).toBe(w.balance);
    expect(w.balance).toBe(1000);
    expect(await auditCount(c, 'citation.card-refund-refused')).toBe(1);
    expect(await lastSms(driver.phone)).toContain('your card ending 4242 refused the refund of 10.00');
  });

  it('race: the same decision twice with one key and twice with two other keys: one decision, one refund to the card', async () => {
    for (let round = 0; round < 2; round++) {
      const { driver, c } = await paidByCard();
      await contest(driver, c);
      const same = randomUUID();
      const keys = [same, same, randomUUID(), randomUUID()];
      const out = await concurrently(4, (i) =>
        decide(c.CitationId, { Decision: 'reduced', NewFine: '15.00' }, keys[i]).then((r) => r.statusCode),
      );
      // One decision is made (200); a request with another key then finds the contest decided (409).
      expect(out.filter((s) => s === 200).length).toBeGreaterThanOrEqual(1);
      expect(out.every((s) => s === 200 || s === 409)).toBe(true);
      expect(await auditCount(c, 'citation.decide')).toBe(1);
      await expectRefundedToCard(driver, c, 1000); // 25.00 reduced to 15.00
    }
  });
});

describe('a card refund retried by the wallet job', () => {
  it('refused on the retry (the first try never reached Stripe): credited to the wallet, audited and told once', async () => {
    const { driver, c } = await paidByCard();
    await contest(driver, c);
    const restore = fake.cut('POST', '/v1/refunds');
    let res;
    try {
      res = await decide(c.CitationId, { Decision: 'cancelled' }, randomUUID());
    } finally {
      restore();
    }
    expect(res.statusCode, res.body).toBe(200);
    expect(await refundRows(c.CitationId)).toEqual([{ status: 'pending', amount: 2500 }]);
    expect(await lastSms(driver.phone)).toContain('25.00 goes back to your card ending 4242');
    await refundedByHand(driver);
    // Older than the job's grace, as a refund its request left pending a while ago.
    await db.execute(
      sql`update wallet_refunds set created_at = now() - interval '2 minutes'
          where provider_key like ${`citation-refund:${c.CitationId}:%`}`,
    );
    await app.wallet.runJobs();
    await app.wallet.runJobs();
    expect(await refundRows(c.CitationId)).toEqual([{ status: 'failed', amount: 2500 }]);
    const w = await walletState(db, driver.memberId);
    expect(w.ledger).toBe(w.balance);
    expect(w.balance).toBe(2500);
    expect(await auditCount(c, 'citation.card-refund-refused')).toBe(1);
    const [audit] = await queryRows<{ before: { refundTo: string; cardLast4: string }; after: { refundTo: string } }>(
      db,
      sql`select before, after from audit_log where entity_id = ${String(c.CitationId)}
          and action = 'citation.card-refund-refused'`,
    );
    expect(audit).toMatchObject({ before: { refundTo: 'card', cardLast4: '4242' }, after: { refundTo: 'wallet' } });
    expect(await lastSms(driver.phone)).toContain('your card ending 4242 refused the refund of 25.00');
  });
});

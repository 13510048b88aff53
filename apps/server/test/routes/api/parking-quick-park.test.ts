import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { PARKING_MESSAGES, QUICK_PARK_MESSAGES, type ParkingSession, type Quote } from '@parkit/contract';
import { queryRows } from '../../../src/db/client.ts';
import { as, buildTestApp, newMember, registerAndSignIn } from '../../helpers.ts';
import { addZone, verifiedGuest } from '../../parking-helpers.ts';
import { concurrently } from '../../concurrency.ts';
import { sandboxCardToken } from '../../wallet/helpers.ts';

const { app, database } = await buildTestApp();
await addZone(database.db, '9101');

const phoneOf = () => newMember().PhoneNumber;
const post = (url: string, payload: unknown, token?: string) =>
  app.inject({
    method: 'POST',
    url: `/api/Parking/Guest/${url}`,
    payload: payload as Record<string, unknown>,
    headers: token ? { 'x-guest-token': token } : {},
  });

const quote = (token: string, plate = 'QP 123') =>
  post('Quote', { ZoneNumber: '9101', PlateNumber: plate, PlateState: 'TX', DurationMinutes: 60 }, token);

describe('Quick Park', () => {
  it('tells a guest the payment is the sandbox (offline), with no publishable key', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/api/Parking/Guest/Payment',
      headers: { 'x-guest-token': (await verifiedGuest(app)).token },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ PaymentProvider: 'sandbox', PublishableKey: null, Currency: 'USD' });
  });

  it('parks a guest with a verified phone and a card; the receipt link reaches the phone', async () => {
    const phone = phoneOf();
    const token = (await verifiedGuest(app, phone)).token;
    const q = await quote(token);
    expect(q.statusCode, q.body).toBe(200);
    expect(q.json<Quote>()).toMatchObject({ ParkingAmount: 2.5, FeeAmount: 0, TotalAmount: 2.5 });
    const res = await post(
      'Start',
      { QuoteId: q.json<Quote>().QuoteId, CardToken: await sandboxCardToken(app) },
      token,
    );
    expect(res.statusCode, res.body).toBe(201);
    const s = res.json<ParkingSession>();
    expect(s).toMatchObject({
      PlateNumber: 'QP 123',
      PlateState: 'TX',
      PaidVia: 'Card',
      AmountPaid: 2.5,
      Status: 'Active',
      ZoneNumber: '9101',
    });
    const sms = (await app.inject({ method: 'GET', url: `/api/Dev/Outbox?to=${phone}&limit=1` })).json<
      { Body: string }[]
    >()[0]!.Body;
    expect(sms).toContain(`/QuickParkRegister?session=${s.SessionId}&token=`);
    // The link's token opens the session, and only this phone's.
    const seen = await app.inject({
      method: 'GET',
      url: `/api/Parking/Guest/Session/${s.SessionId}`,
      headers: { 'x-guest-token': token },
    });
    expect(seen.json<ParkingSession>().SessionId).toBe(s.SessionId);
    const stranger = (await verifiedGuest(app)).token;
    expect(
      (
        await app.inject({
          method: 'GET',
          url: `/api/Parking/Guest/Session/${s.SessionId}`,
          headers: { 'x-guest-token': stranger },
        })
      ).statusCode,
    ).toBe(404);
    expect((await post('Stop', { SessionId: s.SessionId }, stranger)).statusCode).toBe(404);
    // One active session per plate.
    const again = await quote(token);
    const busy = await post(
      'Start',
      { QuoteId: again.json<Quote>().QuoteId, CardToken: await sandboxCardToken(app) },
      token,
    );
    expect(busy.statusCode).toBe(409);
    const stopped = await post('Stop', { SessionId: s.SessionId }, token);
    expect(stopped.statusCode, stopped.body).toBe(200);
    // Stopped in its first minute: 59 unused whole minutes go back to the card (250 × 59 / 60 = 245.8 → 2.46).
    expect(stopped.json()).toMatchObject({ Status: 'Ended', UnusedMinutes: 59, RefundAmount: 2.46, AmountPaid: 0.04 });
  });

  it('the SMS link extends with the same card and stops with the unused minutes refunded to it, once', async () => {
    const phone = phoneOf();
    const token = (await verifiedGuest(app, phone)).token;
    const q = (await quote(token, 'EXT 1')).json<Quote>();
    const s = (
      await post('Start', { QuoteId: q.QuoteId, CardToken: await sandboxCardToken(app) }, token)
    ).json<ParkingSession>();
    const eq = await post('ExtendQuote', { SessionId: s.SessionId, DurationMinutes: 30 }, token);
    expect(eq.statusCode, eq.body).toBe(200);
    expect(eq.json<Quote>()).toMatchObject({
      StartsAt: s.EndsAt,
      DurationMinutes: 30,
      TotalAmount: 1.25,
      FeeAmount: 0,
      MaxMoreMinutes: 60,
    });
    const stranger = (await verifiedGuest(app)).token;
    expect((await post('ExtendQuote', { SessionId: s.SessionId, DurationMinutes: 30 }, stranger)).statusCode).toBe(404);
    expect((await post('Extend', { QuoteId: eq.json<Quote>().QuoteId }, stranger)).statusCode).toBe(404);
    // Five taps at once: one extension, one charge.
    const paid = await Promise.all(
      Array.from({ length: 5 }, () => post('Extend', { QuoteId: eq.json<Quote>().QuoteId }, token)),
    );
    expect(paid.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409]);
    const extended = paid.find((r) => r.statusCode === 200)!.json<ParkingSession>();
    expect(extended).toMatchObject({ DurationMinutes: 90, AmountPaid: 3.75, EndsAt: eq.json<Quote>().EndsAt });
    expect((await post('ExtendQuote', { SessionId: s.SessionId, DurationMinutes: 61 }, token)).statusCode).toBe(409);
    const sms = (await app.inject({ method: 'GET', url: `/api/Dev/Outbox?to=${phone}&limit=1` })).json<
      { Body: string }[]
    >()[0]!.Body;
    expect(sms).toContain('you paid $1.25 to extend EXT 1');
    const charges = await queryRows<{ amount: number; refunded: number }>(
      database.db,
      sql`select amount_cents as amount, refunded_cents as refunded from parking_card_payments where session_id = ${s.SessionId} order by id`,
    );
    expect(charges.map((c) => Number(c.amount))).toEqual([250, 125]);

    // Stopped 30.5 minutes in: 59 whole minutes unused = 2.46, from the extension (1.25) first, then the start.
    await database.db.execute(
      sql`update parking_sessions set started_at = started_at - interval '1830 seconds', ends_at = ends_at - interval '1830 seconds' where id = ${s.SessionId}`,
    );
    const stops = await Promise.all([
      post('Stop', { SessionId: s.SessionId }, token),
      post('Stop', { SessionId: s.SessionId }, token),
    ]);
    expect(stops.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const stopped = stops.find((r) => r.statusCode === 200)!.json();
    expect(stopped).toMatchObject({
      Status: 'Ended',
      UnusedMinutes: 59,
      RefundAmount: 2.46,
      AmountPaid: 1.29,
      DurationMinutes: 31,
    });
    const after = await queryRows<{ amount: number; refunded: number }>(
      database.db,
      sql`select amount_cents as amount, refunded_cents as refunded from parking_card_payments where session_id = ${s.SessionId} order by id`,
    );
    expect(after.map((c) => [Number(c.amount), Number(c.refunded)])).toEqual([
      [250, 121],
      [125, 125],
    ]);
    // Ended: no more extensions, and the card it kept for them is forgotten (issue 28).
    expect((await post('ExtendQuote', { SessionId: s.SessionId, DurationMinutes: 15 }, token)).statusCode).toBe(409);
    const kept = await queryRows<{ card: string | null }>(
      database.db,
      sql`select card_ref as card from parking_sessions where id = ${s.SessionId}`,
    );
    expect(kept).toEqual([{ card: null }]);
  });

  it('refuses a declined card and writes no session; a spent quote cannot pay twice', async () => {
    const token = (await verifiedGuest(app)).token;
    const q = (await quote(token, 'DECL 1')).json<Quote>();
    const declined = await post(
      'Start',
      { QuoteId: q.QuoteId, CardToken: await sandboxCardToken(app, '4000 0000 0000 0002') },
      token,
    );
    expect(declined.statusCode).toBe(402);
    const ok = await post('Start', { QuoteId: q.QuoteId, CardToken: await sandboxCardToken(app) }, token);
    expect(ok.statusCode, ok.body).toBe(201);
    const twice = await post('Start', { QuoteId: q.QuoteId, CardToken: await sandboxCardToken(app) }, token);
    expect(twice.statusCode).toBe(409);
  });

  it('a spent quote sent again with the same Idempotency-Key answers the same session, charged once (defect 5)', async () => {
    const token = (await verifiedGuest(app)).token;
    const q = (await quote(token, 'TAP 1')).json<Quote>();
    const start = async (key: string | null, who = token) =>
      app.inject({
        method: 'POST',
        url: '/api/Parking/Guest/Start',
        // The web tokenizes the card again for each tap: the repeat carries another card token.
        payload: { QuoteId: q.QuoteId, CardToken: await sandboxCardToken(app) },
        headers: { 'x-guest-token': who, ...(key === null ? {} : { 'idempotency-key': key }) },
      });
    const key = `Guest/Start:${q.QuoteId}`;
    const first = await start(key);
    expect(first.statusCode, first.body).toBe(201);
    const id = first.json<ParkingSession>().SessionId;
    const again = await start(key);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json<ParkingSession>()).toMatchObject({ SessionId: id, Status: 'Active', PlateNumber: 'TAP 1' });
    // Another key, no key, or another phone with the key: the quote is spent.
    for (const res of [
      await start('another-key'),
      await start(null),
      await start(key, (await verifiedGuest(app)).token),
    ]) {
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json<{ message: string }>().message).toBe(PARKING_MESSAGES.quoteExpired);
    }
    const charges = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from wallet_charges where quote_id = ${q.QuoteId}`,
    );
    expect(charges[0]!.n).toBe(1);
    const payments = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from parking_card_payments where session_id = ${id}`,
    );
    expect(payments[0]!.n).toBe(1);
  });

  it('two taps at once with one Idempotency-Key: both answer the one session, the card is charged once', async () => {
    const token = (await verifiedGuest(app)).token;
    const q = (await quote(token, 'TAP 2')).json<Quote>();
    const tokens = [await sandboxCardToken(app), await sandboxCardToken(app)];
    const res = await concurrently(2, (i) =>
      app.inject({
        method: 'POST',
        url: '/api/Parking/Guest/Start',
        payload: { QuoteId: q.QuoteId, CardToken: tokens[i] },
        headers: { 'x-guest-token': token, 'idempotency-key': `Guest/Start:${q.QuoteId}` },
      }),
    );
    expect(res.map((r) => r.statusCode)).toEqual([201, 201]);
    const ids = new Set(res.map((r) => r.json<ParkingSession>().SessionId));
    expect(ids.size).toBe(1);
    const charges = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from wallet_charges where quote_id = ${q.QuoteId}`,
    );
    expect(charges[0]!.n).toBe(1);
  });

  it('needs a verified phone, refuses bad input and a wrong code', async () => {
    expect((await quote('')).statusCode).toBe(401);
    expect((await quote('not-a-token')).statusCode).toBe(401);
    // A member's access token is not a guest token.
    const member = await registerAndSignIn(app);
    expect((await quote(member.token)).statusCode).toBe(401);
    const phone = phoneOf();
    await post('SendCode', { PhoneNumber: phone });
    expect((await post('Verify', { PhoneNumber: phone, Code: '000000' })).statusCode).toBe(400);
    for (const bad of [
      {},
      { PhoneNumber: '12' },
      { PhoneNumber: 'x'.repeat(5000) },
      { PhoneNumber: phone, Extra: 1 },
    ]) {
      expect((await post('SendCode', bad)).statusCode, JSON.stringify(bad).slice(0, 50)).toBe(400);
    }
    const token = (await verifiedGuest(app)).token;
    for (const bad of [
      { ZoneNumber: '9101', PlateNumber: 'QP1', PlateState: 'TX' },
      { ZoneNumber: "9101'; drop table zones;--", PlateNumber: 'QP1', PlateState: 'TX', DurationMinutes: 60 },
      { ZoneNumber: '9101', PlateNumber: '<script>', PlateState: 'TX', DurationMinutes: 60 },
      { ZoneNumber: '9101', PlateNumber: 'QP1', PlateState: 'Texas', DurationMinutes: 60 },
      { ZoneNumber: '9101', PlateNumber: 'QP1', PlateState: 'TX', DurationMinutes: 121 },
      { ZoneNumber: '424242', PlateNumber: 'QP1', PlateState: 'TX', DurationMinutes: 60 },
    ]) {
      expect((await post('Quote', bad, token)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    for (const bad of [
      {},
      { SessionId: 'x', DurationMinutes: 30 },
      { SessionId: 1 },
      { SessionId: 1, DurationMinutes: 0 },
      { SessionId: 1, DurationMinutes: 30, Extra: 1 },
    ]) {
      expect((await post('ExtendQuote', bad, token)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    for (const bad of [{}, { QuoteId: 'nope' }, { QuoteId: 7 }]) {
      expect((await post('Extend', bad, token)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await post('Extend', { QuoteId: '00000000-0000-4000-8000-000000000000' })).statusCode).toBe(401);
    expect((await post('Extend', { QuoteId: '00000000-0000-4000-8000-000000000000' }, token)).statusCode).toBe(404);
  });

  it('answers 401 with one message on every guest-token route, after checking the input', async () => {
    const QUOTE_ID = '00000000-0000-4000-8000-000000000000';
    const routes: ['GET' | 'POST', string, Record<string, unknown>?][] = [
      ['POST', 'Quote', { ZoneNumber: '9101', PlateNumber: 'QP1', PlateState: 'TX', DurationMinutes: 60 }],
      ['POST', 'Start', { QuoteId: QUOTE_ID, CardToken: 'tok' }],
      ['GET', 'Session/1'],
      ['POST', 'Stop', { SessionId: 1 }],
      ['POST', 'ExtendQuote', { SessionId: 1, DurationMinutes: 30 }],
      ['POST', 'Extend', { QuoteId: QUOTE_ID }],
    ];
    for (const [method, url, payload] of routes) {
      for (const headers of [{}, { 'x-guest-token': 'not-a-token' }]) {
        const res = await app.inject({ method, url: `/api/Parking/Guest/${url}`, payload, headers });
        expect(res.statusCode, url).toBe(401);
        expect(res.json(), url).toEqual({ message: QUICK_PARK_MESSAGES.guestTokenMissing });
      }
    }
    // The input is checked first: a bad body without a token is a 400.
    expect((await post('Stop', { SessionId: 'x' })).statusCode).toBe(400);
  });

  it('registering later with that phone carries the sessions into the new account', async () => {
    const phone = phoneOf();
    const token = (await verifiedGuest(app, phone)).token;
    const q = (await quote(token, 'LATER 1')).json<Quote>();
    const s = (
      await post('Start', { QuoteId: q.QuoteId, CardToken: await sandboxCardToken(app) }, token)
    ).json<ParkingSession>();
    const member = await registerAndSignIn(app, { PhoneNumber: phone });
    const mine = await as(app, member, { method: 'GET', url: `/api/Parking/Session/${s.SessionId}` });
    expect(mine.statusCode, mine.body).toBe(200);
    const active = (await as(app, member, { method: 'GET', url: '/api/Parking/Active' })).json<{
      Sessions: ParkingSession[];
    }>();
    expect(active.Sessions.map((x) => x.SessionId)).toContain(s.SessionId);
    // And the guest link no longer opens it: it is the member's now.
    expect(
      (
        await app.inject({
          method: 'GET',
          url: `/api/Parking/Guest/Session/${s.SessionId}`,
          headers: { 'x-guest-token': token },
        })
      ).statusCode,
    ).toBe(404);
  });
});

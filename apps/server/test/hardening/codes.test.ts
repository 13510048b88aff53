import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@parkit/contract';
import {
  as,
  buildTestApp,
  freshLimitsEachTest,
  lastCode,
  newMember,
  registerAndSignIn,
  tokenPost,
} from '../helpers.ts';
import { concurrently, count, statusCounts } from '../concurrency.ts';

// The code checks and the resend wait hold under concurrent requests.
// The races only show on PostgreSQL (npx vitest run --project server-pg test/hardening).
const { app, database } = await buildTestApp();
const { db } = database;

freshLimitsEachTest(database);

/** A six-digit code that is not `code`. */
const wrong = (code: string, i = 1) => String((Number(code) + i) % 1_000_000).padStart(6, '0');
const ageSends = (phone: string) =>
  db.execute(sql`UPDATE otp_sends SET last_sent_at = last_sent_at - interval '31 seconds' WHERE phone = ${phone}`);
const liveCodes = (phone: string, purpose: string) =>
  count(
    db,
    sql`SELECT count(*) AS n FROM otp_codes WHERE phone = ${phone} AND purpose = ${purpose} AND consumed_at IS NULL`,
  );

describe('item 1: code attempts are counted atomically', () => {
  it('100 concurrent wrong ResetPassword codes use at most 5 tries, and the code dies', async () => {
    const who = await registerAndSignIn(app);
    await ageSends(who.phone);
    expect((await as(app, who, { method: 'POST', url: '/api/Account/ForgotPassword' })).statusCode).toBe(202);
    const code = await lastCode(app, who.phone);
    const results = await concurrently(100, (i) =>
      as(app, who, {
        method: 'POST',
        url: '/api/Account/ResetPassword',
        payload: { Code: wrong(code, i + 1), NewPassword: `new password ${i}` },
      }),
    );
    expect(results.every((r) => r.statusCode === 400 || r.statusCode === 429)).toBe(true);
    const attempts = await count(
      db,
      sql`SELECT max(attempts) AS n FROM otp_codes WHERE phone = ${who.phone} AND purpose = 'reset'`,
    );
    expect(attempts).toBeLessThanOrEqual(5);
    // The right code no longer works: the burst used it up.
    const late = await as(app, who, {
      method: 'POST',
      url: '/api/Account/ResetPassword',
      payload: { Code: code, NewPassword: 'a late new password' },
    });
    expect([400, 429]).toContain(late.statusCode);
  });

  it('a burst of sign-in guesses with the right code among them tries at most 5 codes', async () => {
    const m = newMember();
    expect((await app.inject({ method: 'POST', url: '/api/Account/Register', payload: m })).statusCode).toBe(201);
    const code = await lastCode(app, m.PhoneNumber);
    const guesses = Array.from({ length: 40 }, (_, i) => (i === 39 ? code : wrong(code, i + 1)));
    const results = await concurrently(guesses.length, (i) =>
      tokenPost(app, { grant_type: 'otp', phone: m.PhoneNumber, code: guesses[i]! }),
    );
    const attempts = await count(
      db,
      sql`SELECT attempts AS n FROM otp_codes WHERE phone = ${m.PhoneNumber} AND purpose = 'login'`,
    );
    expect(attempts).toBeLessThanOrEqual(5);
    expect(statusCounts(results)[200] ?? 0).toBeLessThanOrEqual(1);
  });

  it('caps wrong codes per phone across codes, with back-off (429 and Retry-After)', async () => {
    const m = newMember();
    expect((await app.inject({ method: 'POST', url: '/api/Account/Register', payload: m })).statusCode).toBe(201);
    let code = await lastCode(app, m.PhoneNumber);
    // Five wrong tries kill a code; a new code gives five more, but the phone counts them all.
    const statuses: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 5; i++)
        statuses.push(
          (await tokenPost(app, { grant_type: 'otp', phone: m.PhoneNumber, code: wrong(code, i + 1) })).statusCode,
        );
      await ageSends(m.PhoneNumber);
      expect(
        (await app.inject({ method: 'POST', url: '/api/Account/SendOtp', payload: { PhoneNumber: m.PhoneNumber } }))
          .statusCode,
      ).toBe(202);
      code = await lastCode(app, m.PhoneNumber);
    }
    expect(statuses.slice(0, 11).every((s) => s === 400)).toBe(true);
    expect(statuses[11]).toBe(429);
    // Locked: even the right code waits.
    const locked = await tokenPost(app, { grant_type: 'otp', phone: m.PhoneNumber, code });
    expect(locked.statusCode).toBe(429);
    expect(locked.json()).toEqual({ message: MESSAGES.tooManyAttempts });
    expect(Number(locked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('Quick Park’s codes count against the same cap per phone', async () => {
    const phone = newMember().PhoneNumber;
    const guest = (url: string, payload: object) =>
      app.inject({ method: 'POST', url: `/api/Parking/Guest/${url}`, payload });
    const statuses: number[] = [];
    let code = '';
    for (let round = 0; round < 3; round++) {
      expect((await guest('SendCode', { PhoneNumber: phone })).statusCode).toBe(202);
      code = await lastCode(app, phone);
      for (let i = 0; i < 5; i++)
        statuses.push((await guest('Verify', { PhoneNumber: phone, Code: wrong(code, i + 1) })).statusCode);
      await ageSends(phone);
    }
    expect(statuses.slice(0, 11).every((s) => s === 400)).toBe(true);
    expect(statuses[11]).toBe(429);
    expect((await guest('Verify', { PhoneNumber: phone, Code: code })).statusCode).toBe(429);
  });
});

describe('item 2: one live code per phone and purpose; the 30 s wait holds under concurrency', () => {
  it('seven concurrent SendOtp calls send one code', async () => {
    const m = newMember();
    expect((await app.inject({ method: 'POST', url: '/api/Account/Register', payload: m })).statusCode).toBe(201);
    await ageSends(m.PhoneNumber);
    const before = await count(db, sql`SELECT count(*) AS n FROM outbox WHERE recipient = ${m.PhoneNumber}`);
    const results = await concurrently(7, () =>
      app.inject({ method: 'POST', url: '/api/Account/SendOtp', payload: { PhoneNumber: m.PhoneNumber } }),
    );
    expect(statusCounts(results)).toEqual({ 202: 1, 429: 6 });
    expect(await count(db, sql`SELECT count(*) AS n FROM outbox WHERE recipient = ${m.PhoneNumber}`)).toBe(before + 1);
    expect(await liveCodes(m.PhoneNumber, 'login')).toBe(1);
  });

  it('seven concurrent ForgotPassword calls send one reset code', async () => {
    const who = await registerAndSignIn(app);
    const results = await concurrently(7, () => as(app, who, { method: 'POST', url: '/api/Account/ForgotPassword' }));
    expect(statusCounts(results)).toEqual({ 202: 1, 429: 6 });
    expect(await liveCodes(who.phone, 'reset')).toBe(1);
  });
});

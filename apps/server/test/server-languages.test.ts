// The server's texts in the reader's language (English, Hindi, Spanish): the codes follow the
// request's language; a member's SMS follow the language saved at sign-in; a guest's follow the
// language their phone asked its Quick Park code in. English stays as it was, letter for letter.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { GuestToken, Quote } from '@parkit/contract';
import { queryRows } from '../src/db/client.ts';
import { expireSessions, sendReminders } from '../src/parking/parking-jobs.ts';
import { buildTestApp, MANY_REQUESTS, newMember, type SignedIn } from './helpers.ts';
import { addVehicle, addZone, credit, startSession } from './parking-helpers.ts';

const { app, database } = await buildTestApp(MANY_REQUESTS);
const db = database.db;
const zone = await addZone(db, '8301', { maxStayMinutes: 120 });
await addZone(db, '8302');
const MIN = 60_000;

/** Moves a session so that it ends `minutes` from `now` (negative: already over). */
async function endIn(id: number, minutes: number, now: Date) {
  const endsAt = new Date(now.getTime() + minutes * MIN);
  await db.execute(
    sql`update parking_sessions set ends_at = ${endsAt}, started_at = ${endsAt}::timestamptz - make_interval(mins => duration_minutes) where id = ${id}`,
  );
}

const sms = async (phone: string) =>
  (await queryRows<{ body: string }>(db, sql`select body from outbox where recipient = ${phone} order by id`)).map(
    (r) => r.body,
  );
const codeIn = (body: string | undefined) => /\b(\d{6})\b/.exec(body ?? '')?.[1] ?? '';
const asked = (language: string | undefined) => (language ? { 'accept-language': language } : {});

/** Registers and signs in with the app in `language` (Accept-Language, as the web app sends it). */
async function member(language?: string): Promise<SignedIn & { registration: string }> {
  const m = newMember();
  const reg = await app.inject({ method: 'POST', url: '/api/Account/Register', payload: m, headers: asked(language) });
  expect(reg.statusCode, reg.body).toBe(201);
  const [registration = ''] = await sms(m.PhoneNumber);
  const tok = await app.inject({
    method: 'POST',
    url: '/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...asked(language) },
    payload: new URLSearchParams({ grant_type: 'otp', phone: m.PhoneNumber, code: codeIn(registration) }).toString(),
  });
  expect(tok.statusCode, tok.body).toBe(200);
  const body = tok.json<{ access_token: string; member_id: number }>();
  return {
    memberId: body.member_id,
    token: body.access_token,
    refreshToken: '',
    phone: m.PhoneNumber,
    headers: { authorization: `Bearer ${body.access_token}`, xapikey: String(body.member_id) },
    registration,
  };
}

describe('codes: in the language of the request that asked for them', () => {
  it('registration and sign-in codes, in English (unchanged), Spanish and Hindi', async () => {
    const en = await member();
    expect(en.registration).toMatch(
      /^Your ParkIt registration code is \d{6}\. Enter it to finish signing up\. It expires in 10 minutes\.$/,
    );
    const es = await member('es-US,es;q=0.9');
    expect(es.registration).toMatch(
      /^Su código de registro de ParkIt es \d{6}\. Ingréselo para terminar de registrarse\. Vence en 10 minutos\.$/,
    );
    const hi = await member('hi-IN');
    expect(hi.registration).toMatch(/^आपका ParkIt पंजीकरण कोड \d{6} है। .* यह 10 मिनट में समाप्त हो जाएगा।$/);

    for (const [who, language, text] of [
      [en, undefined, /^Your ParkIt sign-in code is \d{6}\. It expires in 10 minutes\.$/],
      [es, 'es', /^Su código de inicio de sesión de ParkIt es \d{6}\. Vence en 10 minutos\.$/],
      [hi, 'hi', /^आपका ParkIt साइन-इन कोड \d{6} है। यह 10 मिनट में समाप्त हो जाएगा।$/],
    ] as const) {
      // The registration's code went less than 30 s ago: the next one may go now.
      await db.execute(sql`update otp_sends set last_sent_at = now() - interval '1 minute' where phone = ${who.phone}`);
      const res = await app.inject({
        method: 'POST',
        url: '/api/Account/SendOtp',
        payload: { PhoneNumber: who.phone },
        headers: asked(language),
      });
      expect(res.statusCode, res.body).toBe(202);
      expect((await sms(who.phone)).at(-1)).toMatch(text);
    }
  });
});

describe('a member’s SMS: in the language saved at sign-in', () => {
  it('saves the app’s language at sign-in (English when none is asked for)', async () => {
    const rows = async (id: number) =>
      (await queryRows<{ language: string }>(db, sql`select language from members where id = ${id}`))[0]?.language;
    expect(await rows((await member()).memberId)).toBe('en');
    expect(await rows((await member('es-MX')).memberId)).toBe('es');
    expect(await rows((await member('hi')).memberId)).toBe('hi');
  });

  it('the reminder and the end notice, in English (unchanged), Spanish and Hindi', async () => {
    const texts: Record<string, string[]> = {};
    for (const language of ['en', 'es', 'hi']) {
      const who = await member(language);
      await credit(db, who.memberId, 10_000);
      const s = await startSession(app, who, { zoneId: zone, vehicleId: await addVehicle(app, who), minutes: 30 });
      const now = new Date();
      await endIn(s.SessionId, 9, now);
      expect(await sendReminders(db, now)).toBe(1);
      await endIn(s.SessionId, -1, now);
      expect(await expireSessions(db, now)).toBe(1);
      texts[language] = (await sms(who.phone)).slice(1);
    }
    expect(texts.en).toEqual([
      expect.stringMatching(/^ParkIt: your parking for PK\d+ in zone 8301 ends at \d\d:\d\d [AP]M \(in 9 minutes\)\.$/),
      expect.stringMatching(/^ParkIt: your parking for PK\d+ in zone 8301 ended at \d\d:\d\d [AP]M\.$/),
    ]);
    expect(texts.es).toEqual([
      expect.stringMatching(
        /^ParkIt: su estacionamiento de PK\d+ en la zona 8301 termina a las \d\d:\d\d [ap]\.\s?m\. \(en 9 minutos\)\.$/,
      ),
      expect.stringMatching(
        /^ParkIt: su estacionamiento de PK\d+ en la zona 8301 terminó a las \d\d:\d\d [ap]\.\s?m\.$/,
      ),
    ]);
    expect(texts.hi).toEqual([
      expect.stringMatching(/^ParkIt: ज़ोन 8301 में PK\d+ की आपकी पार्किंग \d\d:\d\d [ap]m पर खत्म होगी \(9 मिनट में\)।$/),
      expect.stringMatching(/^ParkIt: ज़ोन 8301 में PK\d+ की आपकी पार्किंग \d\d:\d\d [ap]m पर खत्म हो गई।$/),
    ]);
  });
});

describe('a guest’s SMS: in the language their phone asked its code in', () => {
  async function guestPays(language?: string): Promise<string> {
    const phone = newMember().PhoneNumber;
    const sent = await app.inject({
      method: 'POST',
      url: '/api/Parking/Guest/SendCode',
      payload: { PhoneNumber: phone },
      headers: asked(language),
    });
    expect(sent.statusCode).toBe(202);
    const verified = await app.inject({
      method: 'POST',
      url: '/api/Parking/Guest/Verify',
      payload: { PhoneNumber: phone, Code: codeIn((await sms(phone)).at(-1)) },
    });
    expect(verified.statusCode, verified.body).toBe(200);
    const headers = { 'x-guest-token': verified.json<GuestToken>().GuestToken };
    const q = await app.inject({
      method: 'POST',
      url: '/api/Parking/Guest/Quote',
      payload: { ZoneNumber: '8302', PlateNumber: 'LANG 1', PlateState: 'TX', DurationMinutes: 60 },
      headers,
    });
    expect(q.statusCode, q.body).toBe(200);
    const card = await app.inject({
      method: 'POST',
      url: '/api/Sandbox/Tokens',
      payload: { Number: '4242 4242 4242 4242', ExpMonth: 12, ExpYear: 2099, Cvc: '123' },
    });
    const start = await app.inject({
      method: 'POST',
      url: '/api/Parking/Guest/Start',
      payload: { QuoteId: q.json<Quote>().QuoteId, CardToken: card.json<{ Token: string }>().Token },
      headers,
    });
    expect(start.statusCode, start.body).toBeLessThan(300);
    return (await sms(phone)).at(-1) ?? '';
  }

  it('the receipt with its link, in English (unchanged), Spanish and Hindi', async () => {
    expect(await guestPays()).toMatch(
      /^ParkIt: you paid \$2\.50 for LANG 1 in zone 8302, 60 minutes\. Your session: \S+session=\d+\S*$/,
    );
    expect(await guestPays('es-US')).toMatch(
      /^ParkIt: pagó \$2\.50 por LANG 1 en la zona 8302, 60 minutos\. Su sesión: \S+session=\d+\S*$/,
    );
    expect(await guestPays('hi-IN')).toMatch(
      /^ParkIt: आपने ज़ोन 8302 में LANG 1 के लिए 60 मिनट के \$2\.50 चुकाए। आपका सत्र: \S+session=\d+\S*$/,
    );
  });
});

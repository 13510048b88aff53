import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { MESSAGES, SPEC_MESSAGES } from '@parkit/contract';
import app from '../src/app.ts';
import { queryRows } from '../src/db/client.ts';
import { HttpError } from '../src/lib/http-error.ts';
import { buildTestApp, lastCode, newMember, TEST_APP_CONFIG } from './helpers.ts';

// docs/architecture.md#api-conventions: errors are always JSON; no input, however malformed, yields a 500 or
// changes stored data when refused; 500s carry the spec's wording and never a stack.
const { app: server, database } = await buildTestApp();
const { db } = database;
const CONFIG = {
  ...TEST_APP_CONFIG,
  DEV_OUTBOX: true,
} as const;

/** The same app plugin on the same database, in its own instance, plus whatever `extra` adds. */
async function sibling(extra: (scope: FastifyInstance) => void, logger: object | false = false) {
  const instance = Fastify({ logger });
  await instance.register(async (scope) => {
    await app(scope, { config: CONFIG, database });
    extra(scope);
  });
  await instance.ready();
  afterAll(() => instance.close());
  return instance;
}

beforeEach(async () => {
  await db.execute(sql`DELETE FROM rate_limits`);
});

async function counts() {
  const [row] = await queryRows<{ members: number; otp: number; outbox: number; tokens: number }>(
    db,
    sql`SELECT (SELECT count(*)::int FROM members) AS members, (SELECT count(*)::int FROM otp_codes) AS otp,
               (SELECT count(*)::int FROM outbox) AS outbox, (SELECT count(*)::int FROM refresh_tokens) AS tokens`,
  );
  return row!;
}

/** Asserts the answer is a refused request as docs/architecture.md#api-conventions describes. */
function expectClientError(res: { statusCode: number; headers: Record<string, unknown>; body: string }, what = '') {
  expect(res.statusCode, `${what} ${res.body}`).toBeGreaterThanOrEqual(400);
  expect(res.statusCode, `${what} ${res.body}`).toBeLessThan(500);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(res.body) as { message?: unknown; errors?: { field: unknown; message: unknown }[] };
  expect(typeof body.message).toBe('string');
  for (const e of body.errors ?? []) {
    expect(typeof e.field).toBe('string');
    expect(typeof e.message).toBe('string');
  }
  return body;
}

const boom = await sibling((scope) => {
  scope.get('/api/Test/Throw', async () => {
    throw new Error('connection to 10.0.0.5 refused: secret internals');
  });
  scope.get('/api/Test/ThrowString', async () => {
    throw 'a bare string';
  });
  scope.get('/api/Test/Http', async () => {
    throw new HttpError(409, 'Already there', [{ field: 'Plate', message: 'Already there' }]);
  });
});
const lines: string[] = [];
const logged = await sibling(
  (scope) => {
    scope.get('/api/Test/Throw', async () => {
      throw new Error('connection to 10.0.0.5 refused: secret internals');
    });
  },
  { level: 'trace', stream: { write: (line: string) => lines.push(line) } },
);

describe('the error handler', () => {
  it('answers an unexpected error with 500 in the spec’s words, without details or stack', async () => {
    for (const url of ['/api/Test/Throw', '/api/Test/ThrowString']) {
      const res = await boom.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(500);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({
        message: SPEC_MESSAGES.unknownError,
        ErrorDetails: { message: SPEC_MESSAGES.unknownError },
      });
      expect(res.body).not.toMatch(/secret internals|a bare string|stack|at .*\.ts/);
    }
  });

  it('answers an HttpError with its status, message and fields', async () => {
    const res = await boom.inject({ method: 'GET', url: '/api/Test/Http' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Already there', errors: [{ field: 'Plate', message: 'Already there' }] });
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await boom.inject({ method: 'POST', url: '/api/Nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: MESSAGES.notFound });
  });
});

describe('logs', () => {
  it('carry request ids and no password, code or token through a whole sign-up and sign-in', async () => {
    const m = newMember();
    const secrets: string[] = [m.Password];
    const post = (url: string, opts: Omit<InjectOptions, 'method' | 'url'>) =>
      logged.inject({ method: 'POST', url, ...opts });
    const form = (fields: Record<string, string>) =>
      post('/token', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(fields).toString(),
      });

    expect((await post('/api/Account/Register', { payload: m })).statusCode).toBe(201);
    const code = await lastCode(logged, m.PhoneNumber);
    secrets.push(code);
    expect(
      (await form({ grant_type: 'otp', phone: m.PhoneNumber, code: code === '000000' ? '000001' : '000000' }))
        .statusCode,
    ).toBe(400);
    const viaCode = await form({ grant_type: 'otp', phone: m.PhoneNumber, code });
    expect((await form({ grant_type: 'password', username: m.UserName, password: 'the wrong one!' })).statusCode).toBe(
      400,
    );
    secrets.push('the wrong one!');
    const viaPassword = await form({ grant_type: 'password', username: m.UserName, password: m.Password });
    const refreshed = await form({
      grant_type: 'refresh_token',
      refresh_token: viaPassword.json<{ refresh_token: string }>().refresh_token,
    });
    for (const res of [viaCode, viaPassword, refreshed]) {
      expect(res.statusCode).toBe(200);
      const body = res.json<{ access_token: string; refresh_token: string }>();
      secrets.push(body.access_token, body.refresh_token);
    }
    const token = viaCode.json<{ access_token: string; member_id: number }>();
    const headers = { authorization: `Bearer ${token.access_token}`, xapikey: String(token.member_id) };
    expect((await logged.inject({ method: 'GET', url: '/api/Account/Details', headers })).statusCode).toBe(200);
    const newPassword = 'a new secret password';
    secrets.push(newPassword);
    expect(
      (await post('/api/Account/ResetPassword', { headers, payload: { NewPassword: newPassword } })).statusCode,
    ).toBe(200);

    const text = lines.join('');
    expect(text).toContain('incoming request');
    expect(text).toContain('"reqId"');
    // Timestamps and durations are numbers that could hold any six digits by chance.
    const scrubbed = text.replace(/"(time|responseTime)":[\d.e+-]+/g, '');
    for (const secret of secrets) expect(scrubbed, `log holds ${secret.slice(0, 12)}…`).not.toContain(secret);
  });

  it('keep the details of a 500, which the answer does not show', async () => {
    lines.length = 0;
    const res = await logged.inject({ method: 'GET', url: '/api/Test/Throw' });
    expect(res.statusCode).toBe(500);
    const entry = lines
      .map((l) => JSON.parse(l) as { level: number; msg: string; err?: { message: string; stack: string } })
      .find((l) => l.level === 50);
    expect(entry?.err?.message).toContain('secret internals');
    expect(entry?.err?.stack).toBeTruthy();
  });
});

describe('bad input to the sign-in paths: always a JSON 4xx, never a 5xx, nothing stored', () => {
  type Req = { url: string; payload: string; contentType?: string; remoteAddress?: string };
  const JSON_TYPE = 'application/json';
  const FORM = 'application/x-www-form-urlencoded';
  const send = ({ url, payload, contentType = JSON_TYPE, remoteAddress }: Req) =>
    server.inject({
      method: 'POST',
      url,
      payload,
      headers: { 'content-type': contentType },
      ...(remoteAddress ? { remoteAddress } : {}),
    });
  const PATHS = ['/api/Account/Register', '/api/Account/SendOtp', '/token', '/api/Account/Logout'];
  const validRegistration = () => newMember() as Record<string, unknown>;

  /** Sends, asserts a refused request and that no member, code, message or token was stored. */
  async function refused(req: Req, field?: string) {
    const before = await counts();
    const res = await send(req);
    const body = expectClientError(res, `${req.url} ${req.payload.slice(0, 80)}`);
    if (field !== undefined) expect(body.errors?.map((e) => e.field)).toContain(field);
    expect(await counts()).toEqual(before);
    return res;
  }

  it.each(PATHS)('refuses malformed JSON at %s with 400', async (url) => {
    for (const payload of ['{', '{"UserName": ', 'nul', '[1,2', '{"a":1}}', "{'a':1}", '{"__proto__":{"x":1}}']) {
      const res = await refused({ url, payload });
      expect(res.statusCode).toBe(400);
    }
  });

  it.each(PATHS)('refuses other content types at %s', async (url) => {
    for (const contentType of ['application/xml', 'multipart/form-data; boundary=x', 'image/png']) {
      expect((await refused({ url, payload: JSON.stringify(validRegistration()), contentType })).statusCode).toBe(415);
    }
    // Fastify reads text/plain as a string, which no schema takes.
    expect(
      (await refused({ url, payload: JSON.stringify(validRegistration()), contentType: 'text/plain' })).statusCode,
    ).toBe(400);
  });

  it.each(PATHS)('refuses bodies over 64 KB at %s with 413', async (url) => {
    const big = JSON.stringify({
      ...validRegistration(),
      FirstName: 'x'.repeat(70_000),
      grant_type: 'password',
      username: 'x'.repeat(70_000),
    });
    expect((await refused({ url, payload: big })).statusCode).toBe(413);
    expect((await refused({ url, payload: big })).json()).toEqual({ message: MESSAGES.bodyTooLarge });
    const bigForm = new URLSearchParams({
      grant_type: 'password',
      username: 'x'.repeat(70_000),
      password: 'p',
    }).toString();
    expect((await refused({ url, payload: bigForm, contentType: FORM })).statusCode).toBe(413);
  });

  it('refuses non-object bodies', async () => {
    for (const url of ['/api/Account/Register', '/api/Account/SendOtp', '/token']) {
      for (const payload of ['null', '[]', '"text"', '42', 'true', '[{"UserName":"a"}]'])
        await refused({ url, payload });
    }
  });

  const WRONG_TYPES: [string, unknown][] = [
    ['a number', 12345678901],
    ['an array', ['user1']],
    ['an object', { $ne: null }],
    ['null', null],
    ['a boolean', true],
  ];
  it.each(WRONG_TYPES)('refuses each registration field holding %s, naming it', async (_what, value) => {
    for (const field of ['FirstName', 'LastName', 'UserName', 'EmailAddress', 'PhoneNumber', 'Password']) {
      const res = await refused(
        { url: '/api/Account/Register', payload: JSON.stringify({ ...validRegistration(), [field]: value }) },
        field,
      );
      expect(res.statusCode).toBe(400);
    }
  });

  it.each(WRONG_TYPES)('refuses token fields holding %s', async (_what, value) => {
    const bodies = [
      { grant_type: 'password', username: value, password: 'whatever1' },
      { grant_type: 'password', username: 'demo', password: value },
      { grant_type: 'otp', phone: value, code: '123456' },
      { grant_type: 'otp', phone: '5125550100', code: value },
      { grant_type: 'refresh_token', refresh_token: value },
      { grant_type: value, username: 'demo', password: 'whatever1' },
    ];
    for (const b of bodies) expect((await refused({ url: '/token', payload: JSON.stringify(b) })).statusCode).toBe(400);
  });

  it('refuses a 10,000-character username, naming the field', async () => {
    const long = 'u'.repeat(10_000);
    await refused(
      { url: '/api/Account/Register', payload: JSON.stringify({ ...validRegistration(), UserName: long }) },
      'UserName',
    );
    await refused({
      url: '/token',
      payload: new URLSearchParams({ grant_type: 'password', username: long, password: 'x' }).toString(),
      contentType: FORM,
    });
  });

  const HOSTILE = [
    "admin'--",
    "x' OR '1'='1",
    "'); DROP TABLE members;--",
    '<script>alert(1)</script>',
    '🚗🚗🚗🚗',
    'ab\u0000cd',
    '\u0000',
    'a\u202Eb',
    '../../etc/passwd',
    '%00',
  ];
  it.each(HOSTILE)('refuses the hostile username %j at registration and sign-in', async (hostile) => {
    await refused(
      { url: '/api/Account/Register', payload: JSON.stringify({ ...validRegistration(), UserName: hostile }) },
      'UserName',
    );
    for (const username of [hostile, `demo${hostile}`]) {
      const res = await refused({
        url: '/token',
        payload: new URLSearchParams({ grant_type: 'password', username, password: 'whatever1' }).toString(),
        contentType: FORM,
      });
      expect([400, 429]).toContain(res.statusCode);
    }
  });

  it.each([
    ['EmailAddress', 'a\u0000b@example.com'],
    ['EmailAddress', "x' OR 1=1 --@example.com"],
    ['PhoneNumber', '51255501\u000000'],
    ['PhoneNumber', "5125550100'--"],
    ['FirstName', 'Ann\u0000'],
    ['LastName', 'Lee\u0007'],
    ['Password', 'pass\u0000word!'],
  ])('refuses a hostile %s (%j) at registration', async (field, value) => {
    await refused(
      { url: '/api/Account/Register', payload: JSON.stringify({ ...validRegistration(), [field]: value }) },
      field,
    );
  });

  it('refuses hostile codes, phones and refresh tokens', async () => {
    const forms: Record<string, string>[] = [
      { grant_type: 'otp', phone: '5125550100', code: "1' OR '1" },
      { grant_type: 'otp', phone: "5125550100' OR '1'='1", code: '123456' },
      { grant_type: 'otp', phone: '5125550100', code: '12345\u0000' },
      { grant_type: 'refresh_token', refresh_token: "' OR 1=1 --" },
      { grant_type: 'refresh_token', refresh_token: 'a\u0000b' },
      { grant_type: 'password', username: 'demo', password: 'pw\u0000' },
    ];
    for (const f of forms)
      await refused({ url: '/token', payload: new URLSearchParams(f).toString(), contentType: FORM });
    await refused(
      { url: '/api/Account/SendOtp', payload: JSON.stringify({ PhoneNumber: '5125550100\u0000' }) },
      'PhoneNumber',
    );
  });
});

describe('properties: random bodies to the sign-in paths never get a 5xx', () => {
  const FIELDS = [
    'FirstName',
    'LastName',
    'UserName',
    'EmailAddress',
    'PhoneNumber',
    'Password',
    'grant_type',
    'username',
    'password',
    'phone',
    'code',
    'refresh_token',
  ];
  const HOSTILE = [
    "' OR '1'='1",
    '<script>alert(1)</script>',
    '🚗',
    'a\u0000b',
    '\uD800',
    'password',
    'otp',
    'refresh_token',
    '123456',
    '5125550100',
    'a@b.co',
    '',
  ];
  const anyString = fc.oneof(fc.string(), fc.string({ unit: 'binary', maxLength: 300 }), fc.constantFrom(...HOSTILE));
  const anyValue = fc.oneof(
    anyString,
    anyString,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.jsonValue({ maxDepth: 3 }),
  );
  const shaped = fc.dictionary(fc.oneof(fc.constantFrom(...FIELDS), fc.string()), anyValue, { maxKeys: 8 });
  const nearRegistration = fc
    .tuple(fc.constantFrom(...FIELDS.slice(0, 6)), anyValue)
    .map(([field, value]) => ({ ...newMember(), [field]: value }));
  const nearToken = fc.oneof(
    fc.record({ grant_type: fc.constant('password'), username: anyValue, password: anyValue }),
    fc.record({ grant_type: fc.constant('otp'), phone: anyValue, code: anyValue }),
    fc.record({ grant_type: fc.constant('refresh_token'), refresh_token: anyValue }),
  );
  const jsonBody = fc.oneof(
    shaped.map((b) => JSON.stringify(b)),
    nearRegistration.map((b) => JSON.stringify(b)),
    nearToken.map((b) => JSON.stringify(b)),
    fc.jsonValue().map((v) => JSON.stringify(v)),
    fc.string(),
  );
  // A form field is text: objects go as JSON (fast-check's objects may have no prototype, which String() cannot convert).
  const formValue = (v: unknown) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));
  const formBody = fc.oneof(
    fc.dictionary(fc.constantFrom(...FIELDS), anyString, { maxKeys: 5 }),
    nearToken.map((b) => Object.fromEntries(Object.entries(b).map(([k, v]) => [k, formValue(v)]))),
  );

  let run = 0;
  /** A new address per request, so that the address limits do not hide the paths behind them. */
  const nextAddress = () => {
    run += 1;
    return `10.99.${(run >> 8) & 255}.${run & 255}`;
  };
  async function neverA5xx(url: string, payload: string, contentType: string) {
    const before = await counts();
    const res = await server.inject({
      method: 'POST',
      url,
      payload,
      headers: { 'content-type': contentType },
      remoteAddress: nextAddress(),
    });
    expect(res.statusCode, `${url} ${payload.slice(0, 200)} -> ${res.body}`).toBeLessThan(500);
    if (res.statusCode >= 400) {
      expectClientError(res, url);
      expect(await counts()).toEqual(before);
    }
  }

  it('JSON bodies to /api/Account/Register and /token', { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('/api/Account/Register', '/token', '/api/Account/SendOtp'),
        jsonBody,
        (url, payload) => neverA5xx(url, payload, 'application/json'),
      ),
      { numRuns: 250 },
    );
  });

  it('form bodies to /token', { timeout: 180_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(formBody, (fields) =>
        neverA5xx('/token', new URLSearchParams(fields).toString(), 'application/x-www-form-urlencoded'),
      ),
      { numRuns: 150 },
    );
  });
});

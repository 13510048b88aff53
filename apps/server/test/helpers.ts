import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'drizzle-orm';
import { afterAll, beforeEach, expect, inject, onTestFinished } from 'vitest';
import app from '../src/app.ts';
import { createServer } from '../src/server-instance.ts';
import type { WalletConfig } from '../src/wallet/wallet-plugin.ts';
import { openDatabase, type Database, type OpenOptions } from '../src/db/client.ts';
import { defaultOperatorId } from '../src/zones/operator-repository.ts';
import { testPostgres } from './support/test-database.ts';

export const TEST_SECRET = 'test-secret-that-is-long-enough-for-hs256-signing';

/** The config every test app starts from (buildTestApp, and the tests that build their own app): spread, then override. */
export const TEST_APP_CONFIG = {
  NODE_ENV: 'test',
  JWT_SECRET: TEST_SECRET,
  WEB_DIST: '/nonexistent',
  MAP_TILE_URL: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
} as const;

/**
 * A fresh database for one test file: an in-memory PGlite, or a new database on the PostgreSQL
 * server (TEST_DB=postgres), dropped when the file ends.
 */
export async function freshDatabase(opts: Pick<OpenOptions, 'migrationsFolder'> = {}): Promise<Database> {
  // The app's migrations were applied once for the run (support/migrated-template.ts): a copy of
  // that database is one of a database that ran them. Another folder starts from an empty one.
  const template = opts.migrationsFolder ? undefined : inject('migratedTemplate');
  if (process.env.TEST_DB !== 'postgres')
    return openDatabase({
      dataDir: 'memory://',
      ...(template ? { loadDataDir: migratedPglite(template) } : {}),
      ...opts,
    });
  const scratch = await testPostgres('parkit_t', template);
  const database = await openDatabase({ url: scratch.url, poolSize: 4, ...opts });
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}

let migratedDump: { path: string; blob: Blob } | undefined;
/** The run's migrated PGlite data directory, read once per test file. */
function migratedPglite(path: string): Blob {
  if (migratedDump?.path !== path) migratedDump = { path, blob: new Blob([readFileSync(path)]) };
  return migratedDump.blob;
}

/** Limits for a test that sends hundreds of requests (money ones too) from one member and address. */
export const MANY_REQUESTS = { ADDRESS_RATE_LIMIT_SCALE: 1000, MONEY_RATE_LIMIT: 1000 } as const;

export interface TestApp {
  app: FastifyInstance;
  database: Database;
}

/**
 * Every inject comes from 127.0.0.1, so the per-address limits and the failed sign-ins would be
 * shared by a whole file: each test starts with fresh windows (the limits have their own tests).
 */
export function freshLimitsEachTest({ db }: Database) {
  beforeEach(async () => {
    await db.execute(sql`DELETE FROM rate_limits`);
    await db.execute(sql`DELETE FROM auth_failures`);
  });
}

/**
 * The whole app on a fresh database, closed after the file's tests. A test that fires hundreds of
 * requests from one member or one address raises the limits it needs, and says so:
 * `buildTestApp({ MONEY_RATE_LIMIT: 1000, ADDRESS_RATE_LIMIT_SCALE: 1000 })` (or the
 * `MANY_REQUESTS` preset); the defaults are production's.
 */
export async function buildTestApp(
  overrides: {
    WEB_DIST?: string;
    NODE_ENV?: 'test' | 'production';
    ADDRESS_RATE_LIMIT_SCALE?: number;
    API_RATE_LIMIT?: number;
    MONEY_RATE_LIMIT?: number;
    DEV_OUTBOX?: boolean;
    API_DOCS?: 'true' | 'false';
    DATA_DIR?: string;
    PROOF_SIGNING_KEY?: string;
    VAPID_PUBLIC_KEY?: string;
    VAPID_PRIVATE_KEY?: string;
    WEB_PUSH_CA?: string;
    APDS_WEBHOOK_PRIVATE_URLS?: boolean;
  } & WalletConfig = {},
  /**
   * logStream: every log line at trace level goes here (tests that grep the logs). decorations: the
   * app is registered without encapsulation, so the test sees its decorations (app.notifications).
   * database: one the test opened (closed with the app), instead of a fresh one.
   */
  opts: { logStream?: Writable; decorations?: boolean; database?: Database } = {},
): Promise<TestApp> {
  const database = opts.database ?? (await freshDatabase());
  await defaultOperatorId(database.db);
  const instance = createServer({ LOG_LEVEL: opts.logStream ? 'trace' : 'silent', TRUST_PROXY: false }, opts.logStream);
  await instance.register(opts.decorations ? fp(app) : app, {
    config: {
      ...TEST_APP_CONFIG,
      // Tests read the codes from the outbox, as the local demo does.
      DEV_OUTBOX: true,
      ...overrides,
    },
    database,
    closeDatabase: true,
  });
  await instance.ready();
  // Closed (and its PostgreSQL database dropped) when the file ends, or, for an app built inside a
  // test, when that test ends: an afterAll registered while a test runs is never called.
  const inTest = expect.getState().currentTestName !== undefined;
  (inTest ? onTestFinished : afterAll)(() => instance.close());
  return { app: instance, database };
}

let counter = 0;
/** A unique, valid registration. */
export function newMember(overrides: Record<string, string> = {}) {
  counter += 1;
  const tag = `${process.pid % 1000}${counter}${randomBytes(2).toString('hex')}`;
  return {
    FirstName: 'Test',
    LastName: 'Driver',
    UserName: `user${tag}`.slice(0, 30),
    EmailAddress: `user${tag}@example.com`,
    PhoneNumber: `512${String(Math.floor(Math.random() * 1e7)).padStart(7, '0')}`,
    Password: 'correct horse battery',
    ...overrides,
  };
}

export interface SignedIn {
  memberId: number;
  token: string;
  refreshToken: string;
  phone: string;
  headers: Record<string, string>;
}

/** Reads the newest code sent to a phone from the development outbox. */
export async function lastCode(app: FastifyInstance, phone: string): Promise<string> {
  const res = await app.inject({ method: 'GET', url: `/api/Dev/Outbox?to=${phone}&limit=1` });
  const [msg] = res.json<{ Body: string }[]>();
  const code = /\b(\d{6})\b/.exec(msg?.Body ?? '')?.[1];
  if (!code) throw new Error(`no code in the outbox for ${phone}`);
  return code;
}

/** Registers a member, verifies the phone with the code and returns the signed-in session. */
export async function registerAndSignIn(
  app: FastifyInstance,
  overrides: Record<string, string> = {},
): Promise<SignedIn> {
  const member = newMember(overrides);
  const reg = await app.inject({ method: 'POST', url: '/api/Account/Register', payload: member });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.statusCode} ${reg.body}`);
  const code = await lastCode(app, member.PhoneNumber);
  const tok = await app.inject({
    method: 'POST',
    url: '/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ grant_type: 'otp', phone: member.PhoneNumber, code }).toString(),
  });
  if (tok.statusCode !== 200) throw new Error(`token failed: ${tok.statusCode} ${tok.body}`);
  const body = tok.json<{ access_token: string; refresh_token: string; member_id: number }>();
  return {
    memberId: body.member_id,
    token: body.access_token,
    refreshToken: body.refresh_token,
    phone: member.PhoneNumber,
    headers: { authorization: `Bearer ${body.access_token}`, xapikey: String(body.member_id) },
  };
}

/** app.inject with a member's headers. */
export function as(app: FastifyInstance, who: SignedIn, opts: InjectOptions) {
  return app.inject({ ...opts, headers: { ...who.headers, ...(opts.headers ?? {}) } });
}

/** Form-encoded POST /token. */
export function tokenPost(app: FastifyInstance, fields: Record<string, string>) {
  return app.inject({
    method: 'POST',
    url: '/token',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
}

/** A refusal: JSON with a message and, for a field, that field named in errors; the message itself when given. */
export function expectRefused(res: LightMyRequestResponse, status: number, field?: string, message?: string) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json<{ message: string; errors?: { field: string; message: string }[] }>();
  expect(body.message).toEqual(expect.any(String));
  if (field) expect(body.errors?.map((e) => e.field)).toContain(field);
  if (message) expect(body.message).toBe(message);
}

/** The refusal's errors name these fields with these messages (the spec's texts), among others. */
export function expectFieldErrors(res: LightMyRequestResponse, messages: Record<string, string>) {
  const errors = res.json<{ errors?: { field: string; message: string }[] }>().errors;
  expect(errors).toEqual(
    expect.arrayContaining(Object.entries(messages).map(([field, message]) => ({ field, message }))),
  );
}

/** A public reference list: 200 with a cache lifetime; answers its items. */
export async function publicList<T>(app: FastifyInstance, url: string): Promise<T[]> {
  const res = await app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toMatch(/max-age=\d+/);
  return res.json<T[]>();
}

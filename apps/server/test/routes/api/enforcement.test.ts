import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, asc, eq, like } from 'drizzle-orm';
import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import appPlugin from '../../../src/app.ts';
import type { EnforcementAnswer } from '@parkit/contract';
import { openDatabase } from '../../../src/db/client.ts';
import {
  auditLog,
  enforcementChecks,
  members,
  operatorApiKeys,
  operators,
  zones,
} from '../../../src/db/schema/index.ts';
import { defaultOperatorId } from '../../../src/zones/operator-repository.ts';
import { createKey, revokeKey, verifyKey } from '../../../src/enforcement/api-key-repository.ts';
import { KeyCache } from '../../../src/enforcement/key-cache.ts';
import { normalisePlate } from '../../../src/lib/plate.ts';
import { BAD_KEY_LIMIT, KEY_LIMIT } from '../../../src/routes/operator-key/Enforcement/index.ts';
import { as, buildTestApp, registerAndSignIn, TEST_APP_CONFIG } from '../../helpers.ts';
import { addVehicle, credit, startSession } from '../../parking-helpers.ts';
import { addSession, addZones, CENTRE, zoneAt } from '../../support/history-fixtures.ts';
import { cliDatabaseEnv, runScript } from '../../support/cli.ts';

const { app, database } = await buildTestApp();
const db = database.db;
const driver = await registerAndSignIn(app);
const [{ clientId: cityA }] = (await db
  .select({ clientId: members.clientId })
  .from(members)
  .where(eq(members.id, driver.memberId))) as [{ clientId: number }];
const [b] = await db
  .insert(operators)
  .values({ name: 'Other City', city: 'Dallas', state: 'TX', lat: 32.78, lng: -96.8, timezone: 'America/Chicago' })
  .returning();
const cityB = b!.id;
await addZones(db, cityA, [zoneAt('6001', '1 Paid St', CENTRE), zoneAt('6002', '2 Other St', CENTRE)]);
await addZones(db, cityB, [zoneAt('9001', '9 Elm St', { lat: 32.78, lng: -96.8 })]);
const zoneId = async (operatorId: number, n: string) =>
  (
    await db
      .select({ id: zones.id })
      .from(zones)
      .where(and(eq(zones.operatorId, operatorId), eq(zones.zoneNumber, n)))
  )[0]!.id;

const now = Date.now();
// The paid session is made the real way: a vehicle, a wallet credit, Quote and Start.
await credit(db, driver.memberId, 5000);
const vehicleId = await addVehicle(app, driver, 'ABC-1234');
const started = await startSession(app, driver, { zoneId: await zoneId(cityA, '6001'), vehicleId, minutes: 60 });
const paid = started.SessionId;
await addSession(db, {
  memberId: driver.memberId,
  operatorId: cityA,
  zoneId: await zoneId(cityA, '6001'),
  plate: 'OLD 999',
  startedAt: new Date(now - 3 * 3_600_000),
  minutes: 60,
});
// Its time ran out a minute ago, but the expiry job has not run yet: still 'active' in the table.
await addSession(db, {
  memberId: driver.memberId,
  operatorId: cityA,
  zoneId: await zoneId(cityA, '6001'),
  plate: 'LATE 7',
  startedAt: new Date(now - 61 * 60_000),
  minutes: 60,
  active: true,
});
await addSession(db, {
  memberId: driver.memberId,
  operatorId: cityB,
  zoneId: await zoneId(cityB, '9001'),
  plate: 'XYZ 1',
  startedAt: new Date(now - 60_000),
  minutes: 60,
  active: true,
});

const keyA = await createKey(db, cityA, 'officer phone');
const keyB = await createKey(db, cityB);

const check = (key: string | undefined, qs: string) =>
  app.inject({
    method: 'GET',
    url: `/api/Enforcement/Check?${qs}`,
    headers: key === undefined ? {} : { 'x-operator-key': key },
  });

/** A new, empty cache for each direct call: the answer is the database's. */
const uncached = () => new KeyCache({ generation: 0, live: true });

describe('operator API keys', () => {
  it('keeps only a hash, and verifies the key, not a look-alike', async () => {
    const [row] = await db.select().from(operatorApiKeys).where(eq(operatorApiKeys.id, keyA.id));
    expect(row!.keyHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(keyA.key.slice(11));
    expect(await verifyKey(db, uncached(), keyA.key)).toEqual({ id: keyA.id, operatorId: cityA });
    const flipped = keyA.key.slice(0, -1) + (keyA.key.endsWith('A') ? 'B' : 'A');
    expect(await verifyKey(db, uncached(), flipped)).toBeNull();
    expect(await verifyKey(db, uncached(), keyB.key.slice(0, 11) + keyA.key.slice(11))).toBeNull();
    expect(await verifyKey(db, uncached(), '')).toBeNull();
    expect(await verifyKey(db, uncached(), "pk_'; DROP TABLE operator_api_keys; --")).toBeNull();
  });

  it('normalises plates: case, spaces, dashes and dots', () => {
    expect(normalisePlate('abc-1234')).toBe('ABC1234');
    expect(normalisePlate(' ab c.12 34 ')).toBe('ABC1234');
  });
});

describe('GET /api/Enforcement/Check', () => {
  it('answers Paid with EndsAt for a paid plate however it is typed', async () => {
    for (const plate of ['ABC-1234', 'abc1234', 'abc 1234', ' A B C - 1 2 3 4 ']) {
      const res = await check(keyA.key, `zone=6001&plate=${encodeURIComponent(plate)}&state=tx`);
      expect(res.statusCode, plate).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      const body = res.json<EnforcementAnswer>();
      expect(body).toEqual({
        Paid: true,
        EndsAt: new Date(started.EndsAt).toISOString(),
        ZoneNumber: '6001',
        PlateNumber: 'ABC1234',
        PlateState: 'TX',
        Right: { Kind: 'session', Id: String(paid), EndsAt: new Date(started.EndsAt).toISOString() },
      });
    }
  });

  it('answers NOT paid for another zone, another state, an ended or run-out session, or an unknown plate', async () => {
    for (const qs of [
      'zone=6002&plate=ABC1234&state=TX',
      'zone=6001&plate=ABC1234&state=OK',
      'zone=6001&plate=OLD999&state=TX',
      'zone=6001&plate=LATE7&state=TX',
      'zone=6001&plate=NOPE&state=TX',
    ]) {
      const res = await check(keyA.key, qs);
      expect(res.statusCode, qs).toBe(200);
      expect(res.json<EnforcementAnswer>()).toMatchObject({ Paid: false, EndsAt: null, Right: null });
    }
  });

  it('does not see another operator’s zones or sessions', async () => {
    const res = await check(keyA.key, 'zone=9001&plate=XYZ1&state=TX');
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('XYZ');
    const own = await check(keyB.key, 'zone=9001&plate=xyz-1&state=TX');
    expect(own.json<EnforcementAnswer>()).toMatchObject({ Paid: true });
    expect((await check(keyB.key, 'zone=6001&plate=ABC1234&state=TX')).statusCode).toBe(404);
  });

  it('is 401 without a key, with a wrong or a revoked key', async () => {
    const revoked = await createKey(db, cityA);
    expect(await revokeKey(db, cityA, revoked.prefix)).toBe(true);
    for (const key of [undefined, '', 'nonsense', keyA.key.slice(0, -2), `${keyA.key}x`, revoked.key]) {
      const res = await check(key, 'zone=6001&plate=ABC1234&state=TX');
      expect(res.statusCode, String(key)).toBe(401);
      expect(res.json()).toEqual({ message: 'Unauthorized' });
    }
  });

  it('refuses bad values with a 400 naming the field', async () => {
    const cases: [string, string][] = [
      ['plate=ABC&state=TX', 'zone'],
      ['zone=6001&state=TX', 'plate'],
      ['zone=6001&plate=ABC', 'state'],
      ['zone=6001&plate=ABC&state=Texas', 'state'],
      ['zone=6001&plate=---&state=TX', 'plate'],
      [`zone=6001&plate=${encodeURIComponent("'; DROP TABLE parking_sessions; --")}&state=TX`, 'plate'],
      [`zone=${'9'.repeat(21)}&plate=ABC&state=TX`, 'zone'],
      [`zone=6001&plate=${'A'.repeat(21)}&state=TX`, 'plate'],
      ['zone=60%2001&plate=ABC&state=TX', 'zone'],
    ];
    for (const [qs, field] of cases) {
      const res = await check(keyA.key, qs);
      expect(res.statusCode, qs).toBe(400);
      expect(res.json<{ errors: { field: string }[] }>().errors[0]!.field, qs).toBe(field);
    }
  });

  it('audits every check, answered or refused: who, when, what was asked and the outcome', async () => {
    await db.delete(enforcementChecks);
    const revoked = await createKey(db, cityA);
    expect(await revokeKey(db, cityA, revoked.prefix)).toBe(true);
    const lookAlike = keyA.key.slice(0, -1) + (keyA.key.endsWith('A') ? 'B' : 'A');
    const t0 = Date.now();
    const from = (remoteAddress: string, key: string | undefined, qs: string) =>
      app.inject({
        method: 'GET',
        url: `/api/Enforcement/Check?${qs}`,
        remoteAddress,
        headers: key === undefined ? {} : { 'x-operator-key': key },
      });
    expect((await from('10.12.0.1', keyA.key, 'zone=6001&plate=abc-1234&state=TX')).statusCode).toBe(200);
    expect((await from('10.12.0.1', keyA.key, 'zone=6001&plate=NOPE&state=TX')).statusCode).toBe(200);
    expect((await from('10.12.0.1', keyA.key, 'zone=9001&plate=XYZ1&state=TX')).statusCode).toBe(404);
    for (const key of [undefined, 'wrong-secret', lookAlike, revoked.key]) {
      expect((await from('10.12.0.2', key, 'zone=6001&plate=abc 1234&state=TX')).statusCode, String(key)).toBe(401);
    }
    // Bad input asks nothing: a 400, not audited.
    expect((await from('10.12.0.2', 'wrong', 'zone=6001&plate=---&state=TX')).statusCode).toBe(400);
    const rows = await db.select().from(enforcementChecks).orderBy(asc(enforcementChecks.id));
    const ask = ['6001', 'ABC1234', 'TX'];
    expect(
      rows.map((r) => [
        r.outcome,
        r.keyId,
        r.operatorId,
        r.keyPrefix,
        r.clientAddress,
        r.zoneNumber,
        r.plate,
        r.plateState,
        r.paid,
        r.sessionId,
      ]),
    ).toEqual([
      ['paid', keyA.id, cityA, keyA.prefix, '10.12.0.1', '6001', 'ABC1234', 'TX', true, paid],
      ['not_paid', keyA.id, cityA, keyA.prefix, '10.12.0.1', '6001', 'NOPE', 'TX', false, null],
      ['zone_not_found', keyA.id, cityA, keyA.prefix, '10.12.0.1', '9001', 'XYZ1', 'TX', false, null],
      ['unauthorized', null, null, null, '10.12.0.2', ...ask, null, null],
      // Of a key that matches nothing, at most half of what was presented.
      ['unauthorized', null, null, 'wrong-', '10.12.0.2', ...ask, null, null],
      ['unauthorized', null, null, keyA.prefix, '10.12.0.2', ...ask, null, null],
      ['unauthorized', revoked.id, cityA, revoked.prefix, '10.12.0.2', ...ask, null, null],
    ]);
    for (const r of rows) expect(r.checkedAt.getTime()).toBeGreaterThanOrEqual(t0 - 1000);
    // Never the secret: only the public prefix of a key is kept.
    expect(JSON.stringify(rows)).not.toContain(keyA.key.slice(11, 20));
    const [k] = await db.select().from(operatorApiKeys).where(eq(operatorApiKeys.id, keyA.id));
    expect(k!.lastUsedAt).not.toBeNull();
    const [r] = await db.select().from(operatorApiKeys).where(eq(operatorApiKeys.id, revoked.id));
    expect(r!.lastUsedAt).toBeNull();
  });

  it('writes the answer it gave into the check’s audit row: outcome, paid, the session named, the zone’s address', async () => {
    await db.delete(enforcementChecks);
    await db.update(operatorApiKeys).set({ lastUsedAt: null }).where(eq(operatorApiKeys.id, keyA.id));
    const answers = [];
    for (const qs of [
      'zone=6001&plate=abc1234&state=TX',
      'zone=6002&plate=ABC1234&state=TX',
      'zone=6001&plate=LATE7&state=TX',
    ]) {
      const res = await check(keyA.key, qs);
      expect(res.statusCode).toBe(200);
      answers.push(res.json<EnforcementAnswer>());
    }
    expect((await check(keyA.key, 'zone=9001&plate=XYZ1&state=TX')).statusCode).toBe(404);
    const rows = await db.select().from(enforcementChecks).orderBy(asc(enforcementChecks.id));
    expect(rows.map((r) => [r.outcome, r.zoneNumber, r.paid, r.sessionId, r.address])).toEqual([
      ['paid', '6001', true, Number(answers[0]!.Right!.Id), '1 Paid St'],
      ['not_paid', '6002', false, null, '2 Other St'],
      ['not_paid', '6001', false, null, '1 Paid St'],
      ['zone_not_found', '9001', false, null, ''],
    ]);
    expect(answers[0]!.Right).toMatchObject({ Kind: 'session', Id: String(paid) });
    const [k] = await db.select().from(operatorApiKeys).where(eq(operatorApiKeys.id, keyA.id));
    expect(k!.lastUsedAt).not.toBeNull();
  });

  it('audits a flood of bad keys a window at a time: each 401, and the first 429 of the window', async () => {
    const address = '10.12.0.3';
    const results = [];
    for (let i = 0; i < BAD_KEY_LIMIT.limit + 10; i++) {
      results.push(
        await app.inject({
          method: 'GET',
          url: '/api/Enforcement/Check?zone=6001&plate=ABC1234&state=TX',
          remoteAddress: address,
          headers: { 'x-operator-key': `guess-${i}-${'x'.repeat(40)}` },
        }),
      );
    }
    const refused = results.filter((x) => x.statusCode === 429).length;
    expect(refused).toBe(10); // 20 × 401, then 429 (a 10-minute window boundary inside this loop would change that)
    const rows = await db.select().from(enforcementChecks).where(eq(enforcementChecks.clientAddress, address));
    expect(rows.filter((x) => x.outcome === 'unauthorized')).toHaveLength(
      results.filter((x) => x.statusCode === 401).length,
    );
    expect(rows.filter((x) => x.outcome === 'rate_limited')).toHaveLength(1);
    expect(rows).toHaveLength(results.length - refused + 1);
    for (const x of rows) expect(x.keyPrefix).toMatch(/^guess-\d+-x*$/);
    for (const x of rows) expect(x.keyPrefix!.length).toBeLessThanOrEqual(11);
  });

  it('answers NOT paid once the session is stopped', async () => {
    const vid = await addVehicle(app, driver, 'STOP 42');
    const s = await startSession(app, driver, { zoneId: await zoneId(cityA, '6002'), vehicleId: vid, minutes: 30 });
    expect((await check(keyA.key, 'zone=6002&plate=stop42&state=TX')).json<EnforcementAnswer>().Paid).toBe(true);
    const stop = await as(app, driver, {
      method: 'POST',
      url: '/api/Parking/Stop',
      payload: { SessionId: s.SessionId },
    });
    expect(stop.statusCode).toBe(200);
    expect((await check(keyA.key, 'zone=6002&plate=stop42&state=TX')).json<EnforcementAnswer>()).toMatchObject({
      Paid: false,
      EndsAt: null,
    });
  });

  it('rate-limits a key (429 with Retry-After), counted atomically under concurrent checks', async () => {
    const key = await createKey(db, cityA);
    // Two fixed windows hold at most 2 × limit successes, whatever the boundary.
    const results = await Promise.all(
      Array.from({ length: KEY_LIMIT.limit * 2 + 5 }, () => check(key.key, 'zone=6001&plate=ABC1234&state=TX')),
    );
    const ok = results.filter((r) => r.statusCode === 200).length;
    const limited = results.filter((r) => r.statusCode === 429);
    expect(ok).toBeLessThanOrEqual(KEY_LIMIT.limit * 2);
    expect(limited.length).toBeGreaterThanOrEqual(5);
    expect(Number(limited[0]!.headers['retry-after'])).toBeGreaterThan(0);
    // Audited: every answer, and the first refusal of each minute window (one, or two across a boundary).
    const audited = await db.select().from(enforcementChecks).where(eq(enforcementChecks.keyId, key.id));
    expect(audited.filter((r) => r.outcome === 'paid')).toHaveLength(ok);
    const limitedRows = audited.filter((r) => r.outcome === 'rate_limited');
    expect(limitedRows.length).toBeGreaterThanOrEqual(1);
    expect(limitedRows.length).toBeLessThanOrEqual(2);
    expect(limitedRows[0]).toMatchObject({
      operatorId: cityA,
      keyPrefix: key.prefix,
      zoneNumber: '6001',
      plate: 'ABC1234',
      plateState: 'TX',
      paid: null,
    });
    // Another key is not affected.
    expect((await check(keyB.key, 'zone=9001&plate=XYZ1&state=TX')).statusCode).toBe(200);
  });
});

describe('POST /api/Dev/OperatorKey (development only)', () => {
  it('makes a working key for the local demo, and does not exist in production', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/Dev/OperatorKey', payload: {} });
    expect(res.statusCode).toBe(201);
    const { Key, ClientId } = res.json<{ Key: string; ClientId: number }>();
    expect(ClientId).toBe(cityA);
    expect((await check(Key, 'zone=6001&plate=ABC1234&state=TX')).json<EnforcementAnswer>().Paid).toBe(true);
    expect(
      (await app.inject({ method: 'POST', url: '/api/Dev/OperatorKey', payload: { ClientId: 999999 } })).statusCode,
    ).toBe(404);
    expect(
      (await app.inject({ method: 'POST', url: '/api/Dev/OperatorKey', payload: { ClientId: 'x' } })).statusCode,
    ).toBe(400);

    const prod = Fastify({ logger: false });
    await prod.register(appPlugin, {
      config: {
        ...TEST_APP_CONFIG,
        NODE_ENV: 'production',
      },
      database,
    });
    try {
      expect((await prod.inject({ method: 'POST', url: '/api/Dev/OperatorKey', payload: {} })).statusCode).toBe(404);
    } finally {
      await prod.close();
    }
  });
});

const dir = mkdtempSync(join(tmpdir(), 'parkit-operator-key-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run operator:key', () => {
  it('creates a key shown once, lists it by prefix, and revokes it', { timeout: 240_000 }, async () => {
    const { env, drop } = await cliDatabaseEnv(dir);
    const open = () => openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
    const cli = runScript('operator-key.ts', env);
    try {
      let d = await open();
      const operatorId = await defaultOperatorId(d.db);
      await d.close();

      const created = await cli('--operator', String(operatorId), '--label', 'night shift');
      expect(created.code).toBe(0);
      const key = /\n(pk_\S+)/.exec(created.out)?.[1];
      expect(key).toMatch(/^pk_[A-Za-z0-9_-]{51}$/);

      const listed = await cli('--operator', String(operatorId), '--list');
      expect(listed.code).toBe(0);
      expect(listed.out).toContain(key!.slice(0, 11));
      expect(listed.out).toContain('active');
      expect(listed.out).toContain('night shift');
      expect(listed.out).not.toContain(key!);

      d = await open();
      expect(await verifyKey(d.db, uncached(), key!)).toMatchObject({ operatorId });
      await d.close();

      const revoked = await cli('--operator', String(operatorId), '--revoke', key!.slice(0, 11));
      expect(revoked).toMatchObject({ code: 0, out: expect.stringContaining('Revoked') });
      d = await open();
      expect(await verifyKey(d.db, uncached(), key!)).toBeNull();
      await d.close();

      // --cds: the city's CDS feed key, which opens the CDS routes only and lists apart.
      const cds = await cli('--operator', String(operatorId), '--cds', '--label', 'city');
      expect(cds).toMatchObject({ code: 0, out: expect.stringContaining('CDS feed key') });
      const cdsKey = /\n(pk_\S+)/.exec(cds.out)?.[1];
      d = await open();
      expect(await verifyKey(d.db, uncached(), cdsKey!, 'cds')).toMatchObject({ operatorId });
      expect(await verifyKey(d.db, uncached(), cdsKey!)).toBeNull();
      await d.close();
      expect((await cli('--operator', String(operatorId), '--list')).out).not.toContain(cdsKey!.slice(0, 11));
      expect((await cli('--operator', String(operatorId), '--list', '--cds')).out).toContain(cdsKey!.slice(0, 11));

      // --cds --revoke names a CDS key: the officers' key's prefix is not one.
      const wrongKind = await cli('--operator', String(operatorId), '--cds', '--revoke', key!.slice(0, 11));
      expect(wrongKind).toMatchObject({ code: 1, out: expect.stringContaining('No active key') });

      // Each key made or revoked is in the operator's audit log, by "command line", never its secret.
      d = await open();
      const logged = await d.db
        .select({
          action: auditLog.action,
          entityId: auditLog.entityId,
          actorName: auditLog.actorName,
          after: auditLog.after,
        })
        .from(auditLog)
        .where(and(eq(auditLog.operatorId, operatorId), like(auditLog.action, 'key.%')))
        .orderBy(asc(auditLog.id));
      await d.close();
      expect(logged.map((e) => [e.action, e.entityId, e.actorName])).toEqual([
        ['key.create', key!.slice(0, 11), 'command line'],
        ['key.revoke', key!.slice(0, 11), 'command line'],
        ['key.create', cdsKey!.slice(0, 11), 'command line'],
      ]);
      expect(logged[0]!.after).toEqual({ Prefix: key!.slice(0, 11), Purpose: 'enforcement', Label: 'night shift' });
      expect(JSON.stringify(logged)).not.toContain(key!.slice(11));
      expect(JSON.stringify(logged)).not.toContain(cdsKey!.slice(11));

      const [usage, badOperator, unknown] = await Promise.all([
        cli(),
        cli('--operator', 'x'),
        cli('--operator', '999'),
      ]);
      expect(usage).toMatchObject({ code: 1, out: expect.stringContaining('Usage:') });
      expect(badOperator).toMatchObject({
        code: 1,
        out: expect.stringContaining('--operator needs a positive whole number'),
      });
      expect(unknown).toMatchObject({ code: 1, out: expect.stringContaining('No operator 999') });
    } finally {
      await drop();
    }
  });
});

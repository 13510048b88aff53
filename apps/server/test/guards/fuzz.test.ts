import fc from 'fast-check';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildTestApp, MANY_REQUESTS, registerAndSignIn } from '../helpers.ts';
import { operations } from '../openapi.ts';
import { tableChecksums } from './checksums.ts';
import { badRequests } from './bad-input.ts';
import { addStaff } from '../../src/operators/index.ts';
import { defaultOperatorId } from '../../src/zones/index.ts';

// Issue 8's guard: every operation of the OpenAPI document is sent generated bad input from its
// own schemas; each answer is a JSON 4xx, personal ones no-store, and no table changes. A route
// added later is covered without anyone writing a test. `npm test` runs a few cases per operation
// with a fixed seed; `npm run fuzz` runs many (FUZZ_RUNS, FUZZ_SEED).
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

// Hundreds of requests from one member: the money routes' limit raised so every case reaches validation.
// The web app's page is served too, so an API path that reaches it instead of a JSON 404 shows.
const dist = mkdtempSync(join(tmpdir(), 'parkit-fuzz-dist-'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head></head><body><div id="root"></div></body></html>');
const { app, database } = await buildTestApp({ ...MANY_REQUESTS, WEB_DIST: dist });
const { db } = database;
const member = await registerAndSignIn(app);
// The member is also an owner of the first operator, so that the console's routes (operatorOnly,
// which answers 403 to a driver before reading the input) read the bad input too.
await addStaff(db, await defaultOperatorId(db), member.memberId, 'owner');
const ops = await operations(app);

describe('every operation refuses bad input with a JSON 4xx and changes nothing', () => {
  it('covers the whole document', () => {
    expect(ops.length).toBeGreaterThan(20);
  });

  it.each(ops.map((o) => [`${o.method} ${o.path}`, o] as const))('%s', async (_name, op) => {
    const arb = badRequests(op, op.memberOnly ? member.headers : {});
    if (!arb) return; // takes no input at all (the identity guard still covers it)
    await fc.assert(
      fc.asyncProperty(arb, async (bad) => {
        await db.execute(sql`DELETE FROM rate_limits`);
        const before = await tableChecksums(db);
        const res = await app.inject({
          method: bad.method as 'GET',
          url: bad.url,
          headers: bad.headers,
          ...(bad.payload === undefined ? {} : { payload: bad.payload }),
        });
        const what = `${bad.kind}: ${bad.method} ${bad.url} ${bad.payload?.slice(0, 200) ?? ''} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, what).toBeLessThan(500);
        // A rate limit must not stand in for validation (the limits are raised above).
        expect(res.statusCode, what).not.toBe(429);
        expect(res.headers['content-type'], what).toMatch(/^application\/json/);
        expect(res.headers['cache-control'], what).toBe('no-store');
        // The headers every answer carries.
        expect(res.headers['permissions-policy'], what).toContain('camera=()');
        expect(res.headers['content-security-policy'], what).toContain("frame-ancestors 'none'");
        expect(res.headers['x-frame-options'], what).toBeUndefined();
        expect(await tableChecksums(db), what).toEqual(before);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});

describe('every operation’s path in another letter case is a JSON 404, never the web app’s page', () => {
  it.each(ops.map((o) => [`${o.method} ${o.path}`, o] as const))('%s', async (_name, op) => {
    const path = op.path.replace(/\{[^}]+\}/g, '1');
    for (const url of [path.toUpperCase(), path.toLowerCase()].filter((u) => u !== path)) {
      const res = await app.inject({ method: op.method as 'GET', url, headers: op.memberOnly ? member.headers : {} });
      const what = `${op.method} ${url} -> ${res.statusCode} ${res.body.slice(0, 80)}`;
      expect(res.statusCode, what).toBe(404);
      expect(res.headers['content-type'], what).toMatch(/^application\/json/);
      expect(res.headers['cache-control'], what).toBe('no-store');
    }
  });
});

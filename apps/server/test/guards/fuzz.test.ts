import fc from 'fast-check';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { buildTestApp, MANY_REQUESTS, registerAndSignIn } from '../helpers.ts';
import { operations } from '../openapi.ts';
import { tableChecksums } from './checksums.ts';
import { badRequests } from './bad-input.ts';

// Issue 8's guard: every operation of the OpenAPI document is sent generated bad input from its
// own schemas; each answer is a JSON 4xx, personal ones no-store, and no table changes. A route
// added later is covered without anyone writing a test. `npm test` runs a few cases per operation
// with a fixed seed; `npm run fuzz` runs many (FUZZ_RUNS, FUZZ_SEED).
const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);

// Hundreds of requests from one member: the money routes' limit raised so every case reaches validation.
const { app, database } = await buildTestApp(MANY_REQUESTS);
const { db } = database;
const member = await registerAndSignIn(app);
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
        const res = await app.inject({ method: bad.method as 'GET', url: bad.url, headers: bad.headers, ...(bad.payload === undefined ? {} : { payload: bad.payload }) });
        const what = `${bad.kind}: ${bad.method} ${bad.url} ${bad.payload?.slice(0, 200) ?? ''} -> ${res.statusCode} ${res.body.slice(0, 200)}`;
        expect(res.statusCode, what).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, what).toBeLessThan(500);
        // A rate limit must not stand in for validation (the limits are raised above).
        expect(res.statusCode, what).not.toBe(429);
        expect(res.headers['content-type'], what).toMatch(/^application\/json/);
        expect(res.headers['cache-control'], what).toBe('no-store');
        expect(await tableChecksums(db), what).toEqual(before);
      }),
      { numRuns: RUNS, seed: SEED, endOnFailure: true },
    );
  });
});

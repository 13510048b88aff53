// The operator's API keys in the console (docs/operations.md#api-keys): the owner makes an
// officers' key and a city's CDS key (each shown once, each opening its own routes), lists them
// without secrets and revokes them, audited; other roles, bad input and another operator's keys
// change nothing; two revokes at once write one entry.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  OPERATOR_KEY_MESSAGES as K,
  OPERATOR_MESSAGES as M,
  type AuditPage,
  type CreatedApiKey,
  type OperatorApiKey,
} from '@parkit/contract';
import { concurrently, statusCounts } from '../../concurrency.ts';
import { tableChecksums } from '../../guards/checksums.ts';
import { as, expectRefused, registerAndSignIn, type SignedIn } from '../../helpers.ts';
import { twoOperators } from '../../operator-helpers.ts';

const {
  app,
  db,
  A,
  B,
  owner,
  ownerB,
  staff: { manager, analyst, officer },
} = await twoOperators('Other Keys Parking', ['manager', 'analyst', 'officer']);

const list = (who: SignedIn, operatorId = A) =>
  as(app, who, { method: 'GET', url: `/api/Operator/${operatorId}/Keys` });
const make = (who: SignedIn, payload: unknown, operatorId = A) =>
  as(app, who, { method: 'POST', url: `/api/Operator/${operatorId}/Keys`, payload: payload as object });
const revoke = (who: SignedIn, prefix: string, operatorId = A) =>
  as(app, who, { method: 'POST', url: `/api/Operator/${operatorId}/Keys/${prefix}/Revoke` });
const keyAudit = async (operatorId = A, who = owner) =>
  (await as(app, who, { method: 'GET', url: `/api/Operator/${operatorId}/Audit?limit=100` }))
    .json<AuditPage>()
    .Entries.filter((e) => e.Action.startsWith('key.'));
/** What the key opens: the CDS status (a city's key) and the plate check (an officers' key), 401 or not. */
const opens = async (key: string) => ({
  cds:
    (await app.inject({ method: 'GET', url: '/cds/events/status', headers: { authorization: `Bearer ${key}` } }))
      .statusCode !== 401,
  check:
    (
      await app.inject({
        method: 'GET',
        url: '/api/Enforcement/Check?zone=NOPE&plate=ABC123&state=TX',
        headers: { 'x-operator-key': key },
      })
    ).statusCode !== 401,
});

describe('operator API keys', () => {
  it('the owner makes a city’s CDS key and an officers’ key: each shown once, each opening its own routes, audited', async () => {
    const city = await make(owner, { Purpose: 'cds', Label: '  City of Austin  ' });
    expect(city.statusCode, city.body).toBe(201);
    const cds = city.json<CreatedApiKey>();
    expect(cds).toMatchObject({ Purpose: 'cds', Label: 'City of Austin', LastUsedAt: null, RevokedAt: null });
    expect(cds.Key.startsWith(cds.Prefix)).toBe(true);
    expect(await opens(cds.Key)).toEqual({ cds: true, check: false });

    const officers = (await make(owner, { Purpose: 'enforcement' })).json<CreatedApiKey>();
    expect(officers).toMatchObject({ Purpose: 'enforcement', Label: '' });
    expect(await opens(officers.Key)).toEqual({ cds: false, check: true });

    const listed = (await list(owner)).json<OperatorApiKey[]>();
    expect(listed.map((k) => [k.Prefix, k.Purpose])).toEqual([
      [cds.Prefix, 'cds'],
      [officers.Prefix, 'enforcement'],
    ]);
    // The listing and the audit log name keys by prefix; the secret is nowhere.
    expect(JSON.stringify(listed)).not.toContain(cds.Key);
    expect(listed[0]!.LastUsedAt).not.toBeNull();
    const entries = await keyAudit();
    expect(entries.map((e) => [e.Action, e.EntityId, e.ActorId])).toEqual([
      ['key.create', officers.Prefix, owner.memberId],
      ['key.create', cds.Prefix, owner.memberId],
    ]);
    expect(JSON.stringify(entries)).not.toContain(cds.Key);
    expect(JSON.stringify(entries)).not.toContain(officers.Key);
    // B's owner sees none of A's keys.
    expect((await list(ownerB, B)).json<OperatorApiKey[]>()).toEqual([]);
  });

  it('revoking stops the key at once, is audited once, and a second revoke is 404', async () => {
    const made = (await make(owner, { Purpose: 'cds', Label: 'to revoke' })).json<CreatedApiKey>();
    const officers = (await make(owner, { Purpose: 'enforcement', Label: 'to revoke' })).json<CreatedApiKey>();
    // Used first: each process keeps a key's row after its first use (enforcement/key-cache.ts).
    expect(await opens(made.Key)).toEqual({ cds: true, check: false });
    expect(await opens(officers.Key)).toEqual({ cds: false, check: true });
    const results = await concurrently(6, () => revoke(owner, made.Prefix));
    expect(statusCounts(results)).toEqual({ 200: 1, 404: 5 });
    expect(await opens(made.Key)).toEqual({ cds: false, check: false });
    expect((await revoke(owner, officers.Prefix)).statusCode).toBe(200);
    expect(await opens(officers.Key)).toEqual({ cds: false, check: false });
    expect(
      (await list(owner)).json<OperatorApiKey[]>().find((k) => k.Prefix === made.Prefix)!.RevokedAt,
    ).not.toBeNull();
    const revokes = (await keyAudit()).filter((e) => e.EntityId === made.Prefix && e.Action === 'key.revoke');
    expect(revokes).toHaveLength(1);
    expect(revokes[0]).toMatchObject({ Before: { Revoked: false }, After: { Revoked: true, Purpose: 'cds' } });
    expectRefused(await revoke(owner, made.Prefix), 404, undefined, K.keyNotFound);
  });

  it('marks a key used at most once a minute: a feed read or a plate check every second writes its row once', async () => {
    // A CDS key is marked by its scope; an enforcement key by the check's audit, in its statement.
    for (const Purpose of ['cds', 'enforcement'] as const) {
      const made = (await make(owner, { Purpose, Label: `busy ${Purpose}` })).json<CreatedApiKey>();
      const lastUsed = async () =>
        (await list(owner)).json<OperatorApiKey[]>().find((k) => k.Prefix === made.Prefix)!.LastUsedAt;
      expect(await lastUsed(), Purpose).toBeNull();
      await opens(made.Key);
      const first = await lastUsed();
      expect(first, Purpose).not.toBeNull();
      await opens(made.Key);
      expect(await lastUsed(), Purpose).toBe(first);
      await db.execute(
        sql`update operator_api_keys set last_used_at = now() - interval '2 minutes' where prefix = ${made.Prefix}`,
      );
      const moved = await lastUsed();
      await opens(made.Key);
      expect(new Date((await lastUsed())!).getTime(), Purpose).toBeGreaterThan(new Date(moved!).getTime());
    }
  });

  it('refuses other roles (403), bad input (400) and another operator’s keys (404), changing nothing', async () => {
    const theirs = (await make(ownerB, { Purpose: 'cds' }, B)).json<CreatedApiKey>();
    const driver = await registerAndSignIn(app);
    const before = await tableChecksums(db);
    for (const who of [manager, analyst, officer]) {
      expectRefused(await list(who), 403, undefined, M.roleNotAllowed);
      expectRefused(await make(who, { Purpose: 'cds' }), 403, undefined, M.roleNotAllowed);
      expectRefused(await revoke(who, theirs.Prefix), 403, undefined, M.roleNotAllowed);
    }
    for (const bad of [{}, { Purpose: 'admin' }, { Purpose: null }, { Purpose: ['cds'] }])
      expectRefused(await make(owner, bad), 400, 'Purpose', K.purposeInvalid);
    for (const label of ['x'.repeat(101), 12, { a: 1 }])
      expectRefused(await make(owner, { Purpose: 'cds', Label: label }), 400, 'Label', K.labelTooLong);
    expectRefused(await revoke(owner, "pk_'; DROP"), 400);
    // Another operator's key, named on our path or on theirs.
    expectRefused(await revoke(owner, theirs.Prefix), 404, undefined, K.keyNotFound);
    expectRefused(await revoke(owner, theirs.Prefix, B), 404, undefined, M.operatorNotFound);
    expectRefused(await list(owner, B), 404);
    expectRefused(await make(owner, { Purpose: 'cds' }, B), 404);
    expectRefused(await list(ownerB, A), 404);
    expectRefused(await make(driver, { Purpose: 'cds' }), 403, undefined, M.staffOnly);
    expect(await tableChecksums(db)).toEqual(before);
    expect(await opens(theirs.Key)).toEqual({ cds: true, check: false });
  });
});

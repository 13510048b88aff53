// The money code's rules that its other tests leave open: which bodies are one request
// for an Idempotency-Key, the exact refusals (400, 402, 409, 422) and their fields, the auto-reload
// trigger's boundary, a member that no longer exists, and, on PostgreSQL, a request that meets
// another one holding its key.
import { randomUUID } from 'node:crypto';
import { eq, sql, TransactionRollbackError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Quote } from '@parkit/contract';
import { queryRows } from '../../src/db/client.ts';
import { ledgerEntries } from '../../src/db/schema/index.ts';
import { runAllDueReloads } from '../../src/wallet/auto-reload.ts';
import {
  forgetKey,
  idempotent,
  isTransactionConflict,
  purgeExpiredKeys,
  withIdempotency,
} from '../../src/wallet/idempotency.ts';
import { balanceOf, lockWallet, postEntry, type PostEntryInput } from '../../src/wallet/ledger.ts';
import { startInOneStatement } from '../../src/parking/start-statement.ts';
import { defaultOperatorId } from '../../src/zones/index.ts';
import { concurrently } from '../concurrency.ts';
import { as, buildTestApp, MANY_REQUESTS, registerAndSignIn, type SignedIn } from '../helpers.ts';
import { newOperator } from '../operator-helpers.ts';
import { addVehicle, addZone, credit, pay, quote, walletState } from '../parking-helpers.ts';
import { addCard, addMoney, details, entriesOf, ledgerMatchesBalance, walletContext } from './helpers.ts';

const { app, database } = await buildTestApp(MANY_REQUESTS);
const db = database.db;
const zone = await addZone(db, '7501'); // $2.50/h: 60 minutes = 2.50 + 0.35 fee

const MESSAGES = {
  required: 'The Idempotency-Key header is required',
  format: 'The Idempotency-Key header must be 1 to 255 visible characters',
  reused: 'This Idempotency-Key was already used for a different request',
  inFlight: 'A request with this Idempotency-Key is still running',
  insufficient: 'Your wallet balance is too low.',
  busy: 'Another payment of this wallet was running at the same time. Nothing was charged; please try again.',
};

const post = (tx: Parameters<typeof postEntry>[0], e: PostEntryInput) => postEntry(tx, e);
const posting = (e: PostEntryInput) => db.transaction((tx) => post(tx, e));
const devDebit = (who: SignedIn, amount: number, key: string = randomUUID()) =>
  as(app, who, {
    method: 'POST',
    url: '/api/Dev/WalletDebit',
    payload: { Amount: amount },
    headers: { 'idempotency-key': key },
  });

/** A member with a default card and auto-reload on: Default Add Amount 25.00 below MinBalance 10.00. */
async function withTrigger(balanceCents: number): Promise<SignedIn> {
  const m = await registerAndSignIn(app);
  await addCard(app, m);
  const res = await as(app, m, {
    method: 'POST',
    url: '/api/Account/AutoReload',
    payload: { AutoReload: true, DefaultAddAmount: 25, MinBalance: 10 },
  });
  expect(res.statusCode, res.body).toBe(200);
  if (balanceCents > 0) await credit(db, m.memberId, balanceCents);
  return m;
}
const reloads = async (memberId: number) =>
  (await entriesOf(db, memberId)).filter((e) => e.kind === 'auto-reload').length;

describe('one request per Idempotency-Key', () => {
  /** withIdempotency around a body that counts its runs: answers 201 with the run's number. */
  function counter(memberId: number) {
    let runs = 0;
    const send = (key: string, body: unknown, scope = 'test/Count') =>
      withIdempotency(db, { memberId, key, scope, body }, async () => ({ statusCode: 201, body: { run: ++runs } }));
    return { send, runs: () => runs };
  }

  it('takes the same body with its keys in another order, at any depth, as the same request: the first answer again', async () => {
    const m = await registerAndSignIn(app);
    const c = counter(m.memberId);
    const key = randomUUID();
    const first = await c.send(key, { Amount: 20, Card: { Id: 7, Last4: '4242' }, Tags: [{ a: 1, b: 2 }, 3] });
    expect(first).toEqual({ statusCode: 201, body: { run: 1 }, replayed: false });
    const again = await c.send(key, { Tags: [{ b: 2, a: 1 }, 3], Card: { Last4: '4242', Id: 7 }, Amount: 20 });
    expect(again).toEqual({ statusCode: 201, body: { run: 1 }, replayed: true });
    expect(c.runs()).toBe(1);
  });

  it.each<[string, unknown, unknown]>([
    ['another number', { Amount: 20 }, { Amount: 30 }],
    ['another string', { Id: 'ab' }, { Id: 'ba' }],
    ['another nested value', { Card: { Id: 7 } }, { Card: { Id: 8 } }],
    ['another key', { Amount: 20 }, { Amount2: 20 }],
    ['a value moved into another key', { a: 'x', b: 'y' }, { a: 'xy', b: '' }],
    ['an array split otherwise', { Tags: [1, 23] }, { Tags: [12, 3] }],
    ['an array in another order', { Tags: [1, 2] }, { Tags: [2, 1] }],
    ['a string where a number was', { Amount: 20 }, { Amount: '20' }],
    ['a null where an object was', { Card: { Id: 7 } }, { Card: null }],
    ['an array where an object was', { Card: { 0: 1 } }, { Card: [1] }],
    ['no body where one was', { Amount: 20 }, undefined],
  ])('answers 422 for the same key with %s, and runs nothing', async (_what, body, other) => {
    const m = await registerAndSignIn(app);
    const c = counter(m.memberId);
    const key = randomUUID();
    await c.send(key, body);
    await expect(c.send(key, other)).rejects.toMatchObject({
      statusCode: 422,
      message: MESSAGES.reused,
      errors: [{ field: 'Idempotency-Key', message: MESSAGES.reused }],
    });
    expect(c.runs()).toBe(1);
  });

  it('answers 422 for the same key and body on another route', async () => {
    const m = await registerAndSignIn(app);
    const c = counter(m.memberId);
    const key = randomUUID();
    await c.send(key, { Amount: 20 }, 'test/One');
    await expect(c.send(key, { Amount: 20 }, 'test/Two')).rejects.toMatchObject({ statusCode: 422 });
    expect(c.runs()).toBe(1);
  });

  it('claims the key and stores the answer as named statements on PostgreSQL, planned once per connection', async () => {
    const m = await registerAndSignIn(app);
    const c = counter(m.memberId);
    await c.send(randomUUID(), {});
    // The pool hands the last released connection out again: the one that ran the first request.
    const names = await withIdempotency(
      db,
      { memberId: m.memberId, key: randomUUID(), scope: 'test/Names', body: {} },
      async (tx) => ({
        statusCode: 200,
        body: await queryRows<{ name: string }>(
          tx,
          sql`select name from pg_prepared_statements where name like 'idempotency%' order by name`,
        ),
      }),
    );
    // PGlite runs in this process and takes no names: nothing to plan again there.
    expect(names.body.map((n) => n.name)).toEqual(
      database.driver === 'postgres' ? ['idempotency_claim', 'idempotency_store'] : [],
    );
  });

  it('prepares (charges) nothing for a key that holds an answer, or whose request is still running', async () => {
    const m = await registerAndSignIn(app);
    const key = randomUUID();
    let prepared = 0;
    const send = () =>
      withIdempotency(
        db,
        { memberId: m.memberId, key, scope: 'test/Prepare', body: {} },
        async (_tx, _key, p: number) => ({ statusCode: 201, body: { prepared: p } }),
        async () => ++prepared,
      );
    expect(await send()).toEqual({ statusCode: 201, body: { prepared: 1 }, replayed: false });
    expect(await send()).toEqual({ statusCode: 201, body: { prepared: 1 }, replayed: true });
    await db.execute(
      sql`update idempotency_keys set status_code = null, response = null where member_id = ${m.memberId} and key = ${key}`,
    );
    await expect(send()).rejects.toMatchObject({ statusCode: 409, message: MESSAGES.inFlight });
    expect(prepared).toBe(1);
  });

  it('forgetKey: a key forgotten (its step after COMMIT was undone) runs again; another member’s key is not touched', async () => {
    const [m, other] = [await registerAndSignIn(app), await registerAndSignIn(app)];
    const key = randomUUID();
    let runs = 0;
    const send = (who: SignedIn) =>
      withIdempotency(db, { memberId: who.memberId, key, scope: 'test/Forget', body: {} }, async () => ({
        statusCode: 200,
        body: { run: ++runs },
      }));
    expect(await send(m)).toMatchObject({ body: { run: 1 }, replayed: false });
    expect(await send(other)).toMatchObject({ body: { run: 2 }, replayed: false });
    await forgetKey(db, m.memberId, key);
    expect(await send(m)).toMatchObject({ body: { run: 3 }, replayed: false });
    expect(await send(other)).toMatchObject({ body: { run: 2 }, replayed: true });
  });

  it('a one-statement path failing for another reason than a key already held fails the request; the transaction path is not tried', async () => {
    const m = await registerAndSignIn(app);
    let transactionPath = 0;
    const req = {
      headers: { 'idempotency-key': randomUUID() },
      member: { memberId: m.memberId },
      server: app,
      body: {},
    };
    const reply = { code: () => reply, header: () => reply };
    await expect(
      idempotent(
        req as never,
        reply as never,
        'test/OneStatement',
        async () => ({ statusCode: 200, body: { path: ++transactionPath } }),
        undefined,
        {
          run: async () => {
            throw new Error('the statement broke');
          },
          revive: (stored) => stored,
          checkSession: async () => {},
        },
      ),
    ).rejects.toThrow('the statement broke');
    expect(transactionPath).toBe(0);
  });

  it('runs again when the first run threw: nothing of it is kept, the key neither', async () => {
    const m = await registerAndSignIn(app);
    const key = randomUUID();
    const failing = withIdempotency(
      db,
      { memberId: m.memberId, key, scope: 'test/Fail', body: { Amount: 5 } },
      async (tx) => {
        await post(tx, { memberId: m.memberId, amountCents: 500, kind: 'adjustment', reference: 'rolled back' });
        throw new Error('provider down');
      },
    );
    await expect(failing).rejects.toThrow('provider down');
    const retry = await withIdempotency(
      db,
      { memberId: m.memberId, key, scope: 'test/Fail', body: { Amount: 5 } },
      async (tx, k) => {
        const p = await post(tx, {
          memberId: m.memberId,
          amountCents: 500,
          kind: 'adjustment',
          reference: 'kept',
          idempotencyKey: k,
        });
        return { statusCode: 200, body: { balance: p.balanceCents } };
      },
    );
    expect(retry).toEqual({ statusCode: 200, body: { balance: 500 }, replayed: false });
    expect((await entriesOf(db, m.memberId)).map((e) => [e.reference, e.idempotencyKey])).toEqual([['kept', key]]);
  });
});

describe('a transaction that loses a deadlock or a serialization check', () => {
  /** What PostgreSQL raises in a transaction that lost (sent through the driver as any error is). */
  const lose = (tx: Parameters<typeof post>[0], code: 'serialization_failure' | 'deadlock_detected') =>
    tx.execute(sql.raw(`do $$ begin raise exception 'lost' using errcode = '${code}'; end $$`));

  it('is recognised by its code, however the driver wraps it, and nothing else is', async () => {
    const caught = await db.transaction((tx) => lose(tx, 'deadlock_detected')).catch((e: unknown) => e);
    expect(isTransactionConflict(caught)).toBe(true);
    expect(isTransactionConflict({ code: '40P01' })).toBe(true);
    expect(isTransactionConflict({ code: '40001' })).toBe(true);
    expect(isTransactionConflict({ cause: { code: '40001' } })).toBe(true);
    expect(isTransactionConflict({ cause: { code: '40P01' } })).toBe(true);
    expect(isTransactionConflict({ code: '23505' })).toBe(false);
    expect(isTransactionConflict({ code: '23505', cause: { code: '40001' } })).toBe(false);
    expect(isTransactionConflict(new Error('40001'))).toBe(false);
    expect(isTransactionConflict(null)).toBe(false);
    expect(isTransactionConflict(undefined)).toBe(false);
  });

  it('runs again, and the run that gets through is the one answered and kept', async () => {
    const m = await registerAndSignIn(app);
    const key = randomUUID();
    let runs = 0;
    const send = () =>
      withIdempotency(db, { memberId: m.memberId, key, scope: 'test/Conflict', body: {} }, async (tx, k) => {
        runs++;
        await post(tx, {
          memberId: m.memberId,
          amountCents: 100,
          kind: 'adjustment',
          reference: `run:${runs}`,
          idempotencyKey: k,
        });
        if (runs <= 3) await lose(tx, runs % 2 ? 'serialization_failure' : 'deadlock_detected');
        return { statusCode: 201, body: { run: runs } };
      });
    expect(await send()).toEqual({ statusCode: 201, body: { run: 4 }, replayed: false });
    expect(runs).toBe(4);
    expect(await send()).toEqual({ statusCode: 201, body: { run: 4 }, replayed: true });
    expect((await entriesOf(db, m.memberId)).map((e) => e.reference)).toEqual(['run:4']);
    expect(await balanceOf(db, m.memberId)).toBe(100);
  });

  it('after three retries answers 409 (the wallet was busy), keeping nothing, the key neither', async () => {
    const m = await registerAndSignIn(app);
    const key = randomUUID();
    let runs = 0;
    const send = (lost: boolean) =>
      withIdempotency(db, { memberId: m.memberId, key, scope: 'test/Conflict', body: {} }, async (tx) => {
        runs++;
        await post(tx, { memberId: m.memberId, amountCents: 100, kind: 'adjustment', reference: 'lost' });
        if (lost) await lose(tx, 'serialization_failure');
        return { statusCode: 201, body: { run: runs } };
      });
    await expect(send(true)).rejects.toMatchObject({ statusCode: 409, message: MESSAGES.busy });
    expect(runs).toBe(4);
    expect(await entriesOf(db, m.memberId)).toHaveLength(0);
    // The key holds no answer: the client's retry runs.
    expect(await send(false)).toEqual({ statusCode: 201, body: { run: 5 }, replayed: false });
  });

  it('an operator’s request (no wallet) is told another change was running, not a payment', async () => {
    const A = await defaultOperatorId(db);
    const sent = withIdempotency(
      db,
      { operatorId: A, key: randomUUID(), scope: 'test/Conflict', body: {} },
      async (tx) => {
        await lose(tx, 'deadlock_detected');
        return { statusCode: 200, body: {} };
      },
    );
    await expect(sent).rejects.toMatchObject({
      statusCode: 409,
      message: 'Another change was running at the same time. Nothing was changed; please try again.',
    });
  });
});

describe('lockWallet', () => {
  it('locks the wallet of a member that exists, and says when none does', async () => {
    const m = await registerAndSignIn(app);
    expect(await db.transaction((tx) => lockWallet(tx, m.memberId))).toBe(true);
    expect(await db.transaction((tx) => lockWallet(tx, 2_000_000_000))).toBe(false);
  });
});

describe('keys older than 24 hours', () => {
  it('count as new, and the job purges them and only them', async () => {
    const m = await registerAndSignIn(app);
    await addCard(app, m);
    const [old, fresh] = [randomUUID(), randomUUID()];
    await addMoney(app, m, { Amount: 20 }, old);
    await addMoney(app, m, { Amount: 20 }, fresh);
    await db.execute(
      sql`update idempotency_keys set created_at = now() - interval '25 hours' where member_id = ${m.memberId} and key = ${old}`,
    );
    const later = await addMoney(app, m, { Amount: 30 }, old);
    expect(later.statusCode).toBe(200);
    expect(later.headers['idempotent-replayed']).toBeUndefined();
    expect((await details(app, m)).Balance).toBe(70);
    await db.execute(
      sql`update idempotency_keys set created_at = now() - interval '25 hours' where member_id = ${m.memberId} and key = ${old}`,
    );
    const keys = () =>
      queryRows<{ key: string }>(db, sql`select key from idempotency_keys where member_id = ${m.memberId}`);
    expect(await purgeExpiredKeys(db)).toBeGreaterThanOrEqual(1);
    expect((await keys()).map((k) => k.key)).toEqual([fresh]);
    expect(await purgeExpiredKeys(db)).toBe(0);
  });
});

describe('an operator’s keys (the writes its API key sends, docs/apds.md#idempotency)', () => {
  it('are the operator’s own: replayed, 422 for another body, new for another operator, new again and purged after 24 h', async () => {
    const [A, B] = [await defaultOperatorId(db), await newOperator(db, 'Idempotency keys B')];
    let runs = 0;
    const send = (operatorId: number, key: string, body: unknown) =>
      withIdempotency(db, { operatorId, key, scope: 'test/Operator', body }, async () => ({
        statusCode: 200,
        body: { run: ++runs },
      }));
    const key = randomUUID();
    expect(await send(A, key, { v: 1 })).toEqual({ statusCode: 200, body: { run: 1 }, replayed: false });
    expect(await send(A, key, { v: 1 })).toEqual({ statusCode: 200, body: { run: 1 }, replayed: true });
    await expect(send(A, key, { v: 2 })).rejects.toMatchObject({
      statusCode: 422,
      errors: [{ field: 'Idempotency-Key', message: MESSAGES.reused }],
    });
    expect(await send(B, key, { v: 2 })).toEqual({ statusCode: 200, body: { run: 2 }, replayed: false });
    const keys = () =>
      queryRows<{ operator_id: number }>(db, sql`select operator_id from operator_idempotency_keys where key = ${key}`);
    const aged = () =>
      db.execute(
        sql`update operator_idempotency_keys set created_at = now() - interval '25 hours' where operator_id = ${A} and key = ${key}`,
      );
    await aged();
    expect(await send(A, key, { v: 3 })).toEqual({ statusCode: 200, body: { run: 3 }, replayed: false });
    await aged();
    expect(await purgeExpiredKeys(db)).toBeGreaterThanOrEqual(1);
    expect((await keys()).map((k) => k.operator_id)).toEqual([B]);
  });

  it('an operator’s request prepares (charges) once, as a member’s does: no member is looked for', async () => {
    const A = await defaultOperatorId(db);
    let prepared = 0;
    const key = randomUUID();
    const send = () =>
      withIdempotency(
        db,
        { operatorId: A, key, scope: 'test/OperatorPrepare', body: {} },
        async (_tx, _key, p: number) => ({ statusCode: 201, body: { prepared: p } }),
        async () => ++prepared,
      );
    expect(await send()).toEqual({ statusCode: 201, body: { prepared: 1 }, replayed: false });
    expect(await send()).toEqual({ statusCode: 201, body: { prepared: 1 }, replayed: true });
  });

  it('a run that throws keeps no key; tries of one key at once run once and answer its answer', async () => {
    const A = await defaultOperatorId(db);
    let runs = 0;
    const key = randomUUID();
    const failing = withIdempotency(db, { operatorId: A, key, scope: 'test/Operator', body: {} }, async () => {
      throw new Error('refused');
    });
    await expect(failing).rejects.toThrow('refused');
    const results = await concurrently(5, () =>
      withIdempotency(db, { operatorId: A, key, scope: 'test/Operator', body: {} }, async () => {
        // Held open a moment, so the others' claims wait on the key's row.
        await new Promise((resolve) => setTimeout(resolve, 50));
        return { statusCode: 200, body: { run: ++runs } };
      }),
    );
    expect(runs).toBe(1);
    expect(results.map((r) => r.body)).toEqual(Array(5).fill({ run: 1 }));
    expect(results.filter((r) => r.replayed)).toHaveLength(4);
  });
});

describe('the refusals and their fields', () => {
  const refusal = (res: { statusCode: number; json: <T>() => T }) => ({ status: res.statusCode, body: res.json() });

  it('400 names the Idempotency-Key header: missing or empty (required), too long or not visible ASCII (format)', async () => {
    const m = await registerAndSignIn(app);
    await addCard(app, m);
    const required = {
      status: 400,
      body: { message: MESSAGES.required, errors: [{ field: 'Idempotency-Key', message: MESSAGES.required }] },
    };
    const format = {
      status: 400,
      body: { message: MESSAGES.format, errors: [{ field: 'Idempotency-Key', message: MESSAGES.format }] },
    };
    expect(refusal(await addMoney(app, m, { Amount: 20 }, null))).toEqual(required);
    expect(refusal(await addMoney(app, m, { Amount: 20 }, ''))).toEqual(required);
    for (const bad of ['k'.repeat(256), 'has space', ' lead', 'trail ', 'caf\u00e9'])
      expect(refusal(await addMoney(app, m, { Amount: 5 }, bad)), bad).toEqual(format);
    expect(await entriesOf(db, m.memberId)).toHaveLength(0);
    // The bounds themselves pass: one character, 255, and the first and last visible ones.
    for (const good of ['k', 'k'.repeat(255), '!', '~', '!key~'])
      expect((await addMoney(app, m, { Amount: 5 }, good)).statusCode, good).toBe(200);
    expect((await details(app, m)).Balance).toBe(25);
  });

  it('422 names the Idempotency-Key header', async () => {
    const m = await registerAndSignIn(app);
    await addCard(app, m);
    const key = randomUUID();
    expect((await addMoney(app, m, { Amount: 20 }, key)).statusCode).toBe(200);
    const res = await addMoney(app, m, { Amount: 21 }, key);
    expect(refusal(res)).toEqual({
      status: 422,
      body: { message: MESSAGES.reused, errors: [{ field: 'Idempotency-Key', message: MESSAGES.reused }] },
    });
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect((await details(app, m)).Balance).toBe(20);
  });

  it('a replay answers the first status and body, and says so in Idempotent-Replayed', async () => {
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 1000);
    const key = randomUUID();
    const first = await devDebit(m, 6, key);
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await devDebit(m, 6, key);
    expect({ status: again.statusCode, body: again.json(), replayed: again.headers['idempotent-replayed'] }).toEqual({
      status: 200,
      body: first.json(),
      replayed: 'true',
    });
    expect((await walletState(db, m.memberId)).balance).toBe(400);
  });

  it('402 names the Balance when a debit is more than the wallet holds, and writes nothing', async () => {
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 500);
    const res = await devDebit(m, 5.01);
    expect(refusal(res)).toEqual({
      status: 402,
      body: { message: MESSAGES.insufficient, errors: [{ field: 'Balance', message: MESSAGES.insufficient }] },
    });
    // All of it may go.
    expect((await devDebit(m, 5)).json()).toMatchObject({ Balance: 0 });
    expect(await ledgerMatchesBalance(db, m.memberId)).toBe(true);
    expect((await entriesOf(db, m.memberId)).map((e) => e.amountCents)).toEqual([500, -500]);
  });

  it('409 for a key whose first request has claimed it and not answered yet: nothing moves', async () => {
    const m = await registerAndSignIn(app);
    await addCard(app, m);
    const key = randomUUID();
    expect((await addMoney(app, m, { Amount: 20 }, key)).statusCode).toBe(200);
    // What a request that holds the key and has not answered leaves: the claim without an answer.
    await db.execute(
      sql`update idempotency_keys set status_code = null, response = null where member_id = ${m.memberId} and key = ${key}`,
    );
    const res = await addMoney(app, m, { Amount: 20 }, key);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({ message: MESSAGES.inFlight });
    expect((await details(app, m)).Balance).toBe(20);
    // A debit charges no card: it finds the claim in its own transaction, and answers the same.
    const debitKey = randomUUID();
    expect((await devDebit(m, 5, debitKey)).statusCode).toBe(200);
    await db.execute(
      sql`update idempotency_keys set status_code = null, response = null where member_id = ${m.memberId} and key = ${debitKey}`,
    );
    const debit = await devDebit(m, 5, debitKey);
    expect(debit.statusCode, debit.body).toBe(409);
    expect(debit.json()).toMatchObject({ message: MESSAGES.inFlight });
    expect((await details(app, m)).Balance).toBe(15);
  });
});

describe('postEntry', () => {
  it.each([0, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1])(
    'refuses an amount of %s cents and writes nothing',
    async (amountCents) => {
      const m = await registerAndSignIn(app);
      const refused = posting({ memberId: m.memberId, amountCents, kind: 'adjustment', reference: 'bad' });
      await expect(refused).rejects.toThrow(RangeError);
      await expect(refused).rejects.toThrow(`amountCents must be a non-zero integer, got ${amountCents}`);
      expect(await entriesOf(db, m.memberId)).toHaveLength(0);
    },
  );

  it('InsufficientFundsError carries the balance and what the debit needed', async () => {
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 300);
    await expect(
      posting({ memberId: m.memberId, amountCents: -301, kind: 'parking', reference: 'short' }),
    ).rejects.toMatchObject({
      statusCode: 402,
      code: 'INSUFFICIENT_FUNDS',
      name: 'InsufficientFundsError',
      balanceCents: 300,
      requiredCents: 301,
      message: MESSAGES.insufficient,
    });
  });

  it('writes the entry with its key, its reference cut to 200 characters, and the balance after it', async () => {
    const m = await registerAndSignIn(app);
    const posted = await posting({
      memberId: m.memberId,
      amountCents: 700,
      kind: 'top-up',
      reference: `charge:${'r'.repeat(300)}`,
      idempotencyKey: 'key-1',
    });
    const next = await posting({ memberId: m.memberId, amountCents: -200, kind: 'parking', reference: 'session:1' });
    expect(posted).toMatchObject({ balanceCents: 700, reloadDue: false });
    expect(next).toMatchObject({ balanceCents: 500, reloadDue: false });
    const rows = await db
      .select()
      .from(ledgerEntries)
      .where(eq(ledgerEntries.memberId, m.memberId))
      .orderBy(ledgerEntries.id);
    expect(
      rows.map((r) => ({
        id: r.id,
        reference: r.reference,
        key: r.idempotencyKey,
        after: r.balanceAfterCents,
        kind: r.kind,
        amount: r.amountCents,
      })),
    ).toEqual([
      {
        id: posted.entryId,
        reference: `charge:${'r'.repeat(193)}`,
        key: 'key-1',
        after: 700,
        kind: 'top-up',
        amount: 700,
      },
      { id: next.entryId, reference: 'session:1', key: null, after: 500, kind: 'parking', amount: -200 },
    ]);
  });

  it('balanceOf reads the balance, 0 for a member that does not exist', async () => {
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 1234);
    expect(await balanceOf(db, m.memberId)).toBe(1234);
    expect(await balanceOf(db, 2_000_000_000)).toBe(0);
  });
});

describe('the auto-reload trigger (MinBalance 10.00)', () => {
  it('a debit that stays above it, or lands exactly on it, reloads nothing; one that goes below reloads once', async () => {
    const m = await withTrigger(2000);
    expect((await devDebit(m, 5)).json()).toEqual({ Balance: 15, ReloadDue: false, Reload: 'none' });
    expect((await devDebit(m, 5)).json()).toEqual({ Balance: 10, ReloadDue: false, Reload: 'none' });
    await runAllDueReloads(walletContext(db));
    expect(await reloads(m.memberId)).toBe(0);
    expect((await devDebit(m, 5)).json()).toEqual({ Balance: 5, ReloadDue: true, Reload: 'reloaded' });
    expect((await details(app, m)).Balance).toBe(30);
    expect(await reloads(m.memberId)).toBe(1);
  });

  it('a reload already due (its run after COMMIT failed) is left to the job by a payment that did not mark it', async () => {
    const m = await withTrigger(2000);
    // Marked due by a debit whose reload did not run.
    expect(
      await posting({ memberId: m.memberId, amountCents: -1400, kind: 'adjustment', reference: 'marked' }),
    ).toMatchObject({ balanceCents: 600, reloadDue: true });
    expect((await devDebit(m, 5)).json()).toEqual({ Balance: 1, ReloadDue: false, Reload: 'none' });
    expect(await reloads(m.memberId)).toBe(0);
    await runAllDueReloads(walletContext(db));
    expect(await reloads(m.memberId)).toBe(1);
    expect((await details(app, m)).Balance).toBe(26);
  });

  it('a credit that leaves the balance below it reloads nothing', async () => {
    const m = await withTrigger(0);
    expect(
      await posting({ memberId: m.memberId, amountCents: 100, kind: 'adjustment', reference: 'small' }),
    ).toMatchObject({ balanceCents: 100, reloadDue: false });
    expect((await addMoney(app, m, { Amount: 5 })).json()).toMatchObject({ Balance: 6 });
    await runAllDueReloads(walletContext(db));
    expect(await reloads(m.memberId)).toBe(0);
    expect((await details(app, m)).Balance).toBe(6);
  });

  it('a debit below it marks nothing with auto-reload off, or without a card', async () => {
    const off = await withTrigger(2000);
    await as(app, off, {
      method: 'POST',
      url: '/api/Account/AutoReload',
      payload: { AutoReload: false, DefaultAddAmount: 25, MinBalance: 10 },
    });
    expect((await devDebit(off, 15)).json()).toEqual({ Balance: 5, ReloadDue: false, Reload: 'none' });
    const cardless = await withTrigger(2000);
    await db.execute(sql`delete from payment_methods where member_id = ${cardless.memberId}`);
    expect((await devDebit(cardless, 15)).json()).toEqual({ Balance: 5, ReloadDue: false, Reload: 'none' });
    await runAllDueReloads(walletContext(db));
    expect((await reloads(off.memberId)) + (await reloads(cardless.memberId))).toBe(0);
  });

  it('Start lands exactly on it without a reload, and below it with one', async () => {
    const m = await withTrigger(1285);
    const start = async () => {
      const q = (
        await quote(app, m, { ZoneId: zone, VehicleId: await addVehicle(app, m), DurationMinutes: 60 })
      ).json<Quote>();
      const res = await pay(app, m, 'Start', { QuoteId: q.QuoteId });
      expect(res.statusCode, res.body).toBe(201);
    };
    await start();
    expect((await walletState(db, m.memberId)).balance).toBe(1000);
    await runAllDueReloads(walletContext(db));
    expect(await reloads(m.memberId)).toBe(0);
    await start();
    const w = await walletState(db, m.memberId);
    expect(w.entries.map((e) => [e.kind, e.amount])).toEqual([
      ['adjustment', 1285],
      ['parking', -285],
      ['parking', -285],
      ['auto-reload', 2500],
    ]);
    expect(w.balance).toBe(w.ledger);
  });
});

describe('a member that no longer exists', () => {
  it('postEntry answers 404 for a debit or a credit, and writes nothing', async () => {
    for (const amountCents of [-100, 100]) {
      await expect(
        posting({ memberId: 2_000_000_000, amountCents, kind: 'adjustment', reference: 'ghost' }),
      ).rejects.toMatchObject({ statusCode: 404, message: 'Not found' });
    }
    expect(await queryRows(db, sql`select 1 from ledger_entries where member_id = 2000000000`)).toEqual([]);
  });

  it('Start in one statement leaves it to the step-by-step path', async () => {
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 1000);
    const q = (
      await quote(app, m, { ZoneId: zone, VehicleId: await addVehicle(app, m), DurationMinutes: 60 })
    ).json<Quote>();
    expect(
      await db.transaction((tx) => startInOneStatement(tx, 2_000_000_000, q.QuoteId, false, null, new Date())),
    ).toBeNull();
  });

  it('a money request with a token still valid answers 404, never 500', async () => {
    const m = await registerAndSignIn(app);
    await addCard(app, m);
    await credit(db, m.memberId, 1000);
    const q = (
      await quote(app, m, { ZoneId: zone, VehicleId: await addVehicle(app, m), DurationMinutes: 60 })
    ).json<Quote>();
    expect((await details(app, m)).Balance).toBe(10); // the session is known to this process now
    await db.execute(sql`delete from members where id = ${m.memberId}`);
    for (const res of [
      await addMoney(app, m, { Amount: 20 }),
      await devDebit(m, 5),
      await pay(app, m, 'Start', { QuoteId: q.QuoteId }),
    ]) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.json()).toMatchObject({ message: 'Not found' });
    }
  });
});

describe('a claim that fails', () => {
  it('for another reason than a missing member is not answered as one', async () => {
    // A member id beyond PostgreSQL's integer: the claim fails with "out of range", not a foreign key.
    const claim = withIdempotency(
      db,
      { memberId: 2 ** 31, key: randomUUID(), scope: 'test/Range', body: {} },
      async () => ({ statusCode: 200, body: {} }),
    );
    const err = await claim.then(
      () => null,
      (e: unknown) => e as { statusCode?: number },
    );
    expect(err).toBeInstanceOf(Error);
    expect(err?.statusCode).toBeUndefined();
  });
});

// Two requests holding one key at once: PGlite runs one transaction at a time, so only PostgreSQL
// has the second wait for the first.
if (database.driver === 'postgres') {
  describe('a request that meets another holding its key (PostgreSQL)', () => {
    /**
     * Runs `hold` in a transaction that stays open until a request waits on a lock it holds, then
     * commits or rolls back; resolves once `hold` has run, with the transaction's end.
     */
    async function holding(
      hold: (tx: Parameters<Parameters<typeof db.transaction>[0]>[0]) => Promise<void>,
      commit: boolean,
    ) {
      let held!: () => void;
      const ready = new Promise<void>((resolve) => (held = resolve));
      const done = db
        .transaction(async (tx) => {
          await hold(tx);
          held();
          await expect.poll(waiting, { timeout: 10_000, interval: 20 }).toBe(1);
          if (!commit) tx.rollback();
        })
        .catch((err: unknown) => {
          if (commit || !(err instanceof TransactionRollbackError)) throw err;
        });
      await ready;
      return { done };
    }
    const waiting = async () =>
      Number(
        (
          await queryRows<{ n: number }>(
            db,
            sql`select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`,
          )
        )[0]?.n,
      );

    it('the key of a holder that rolled back is claimed again: the request runs, once', async () => {
      const m = await registerAndSignIn(app);
      await addCard(app, m);
      const key = randomUUID();
      const holder = await holding(async (tx) => {
        await tx.execute(
          sql`insert into idempotency_keys (member_id, key, request_hash) values (${m.memberId}, ${key}, 'another request')`,
        );
      }, false);
      const res = await addMoney(app, m, { Amount: 20 }, key);
      await holder.done;
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['idempotent-replayed']).toBeUndefined();
      expect((await addMoney(app, m, { Amount: 20 }, key)).headers['idempotent-replayed']).toBe('true');
      expect((await details(app, m)).Balance).toBe(20);
      expect(await ledgerMatchesBalance(db, m.memberId)).toBe(true);
    });

    it('a key still in flight when its holder commits without an answer: 409, and nothing moves', async () => {
      // A debit that charges no card (Dev/WalletDebit): its claim waits on the key's row. Add Money
      // and Subscribe read their stored answer before charging, without waiting on it.
      const m = await registerAndSignIn(app);
      await addCard(app, m);
      expect((await addMoney(app, m, { Amount: 20 })).statusCode).toBe(200);
      const key = randomUUID();
      expect((await devDebit(m, 5, key)).statusCode).toBe(200);
      const holder = await holding(async (tx) => {
        await tx.execute(
          sql`update idempotency_keys set status_code = null, response = null where member_id = ${m.memberId} and key = ${key}`,
        );
      }, true);
      const res = await devDebit(m, 5, key);
      await holder.done;
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json()).toMatchObject({ message: MESSAGES.inFlight });
      expect((await details(app, m)).Balance).toBe(15);
    });

    it('a request that waited on a holder that committed its answer gets that answer', async () => {
      const m = await registerAndSignIn(app);
      await addCard(app, m);
      expect((await addMoney(app, m, { Amount: 20 })).statusCode).toBe(200);
      const key = randomUUID();
      const first = await devDebit(m, 5, key);
      expect(first.statusCode, first.body).toBe(200);
      const holder = await holding(async (tx) => {
        await tx.execute(
          sql`update idempotency_keys set created_at = now() where member_id = ${m.memberId} and key = ${key}`,
        );
      }, true);
      const res = await devDebit(m, 5, key);
      await holder.done;
      expect({ status: res.statusCode, body: res.json(), replayed: res.headers['idempotent-replayed'] }).toEqual({
        status: 200,
        body: first.json(),
        replayed: 'true',
      });
      expect((await details(app, m)).Balance).toBe(15);
    });
  });
}

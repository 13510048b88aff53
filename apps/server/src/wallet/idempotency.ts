import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { WALLET_MESSAGES } from '@parkit/contract';
import { queryRowsNamed, type Db, type Executor, type Tx } from '../db/client.ts';
import { isUniqueViolation } from '../db/errors.ts';
import { idempotencyKeys, members, operatorIdempotencyKeys } from '../db/schema/index.ts';
import { HttpError, notFound } from '../lib/http-error.ts';
import { withReloadCover } from './auto-reload.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Keys are kept this long per member (or operator); an older key counts as new. */
export const IDEMPOTENCY_TTL_HOURS = 24;

/**
 * Whose keys: a member's (the money routes, and the console's writes by its staff member), kept in
 * `idempotency_keys`, or an operator's, for the writes its API key sends (the APDS updates,
 * docs/apds.md#idempotency), kept in `operator_idempotency_keys`. A key is one owner's: another
 * owner's same key is another key.
 */
export type KeyOwner = { memberId: number } | { operatorId: number };

export interface IdempotentResult<T> {
  statusCode: number;
  body: T;
  /** A debit marked the member's auto-reload due: it runs after COMMIT (not stored, not replayed). */
  reloadDue?: boolean;
}

/** The request's Idempotency-Key: 400 when missing or not 1 to 255 visible ASCII characters. */
export function idempotencyKeyOf(req: FastifyRequest): string {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined || raw === '') {
    throw new HttpError(400, WALLET_MESSAGES.idempotencyKeyRequired, [
      { field: 'Idempotency-Key', message: WALLET_MESSAGES.idempotencyKeyRequired },
    ]);
  }
  if (typeof raw !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(raw)) {
    throw new HttpError(400, WALLET_MESSAGES.idempotencyKeyFormat, [
      { field: 'Idempotency-Key', message: WALLET_MESSAGES.idempotencyKeyFormat },
    ]);
  }
  return raw;
}

/** JSON with sorted keys, so {a,b} and {b,a} are one body. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

export function requestHash(scope: string, body: unknown): string {
  return createHash('sha256')
    .update(`${scope}\n${canonical(body)}`)
    .digest('hex');
}

/** How often a transaction that lost a deadlock or a serialization check is run again before the answer is 409. */
const CONFLICT_RETRIES = 3;

/** PostgreSQL's deadlock_detected (40P01) and serialization_failure (40001), however the driver wraps them. */
export function isTransactionConflict(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  const code = e?.code ?? e?.cause?.code;
  return code === '40P01' || code === '40001';
}

/**
 * The stored answer for (owner, key): 422 for another body; null when none is stored, 'expired'
 * when it is older than 24 h (the key is new again).
 */
async function storedAnswer<T>(
  db: Executor,
  owner: KeyOwner,
  key: string,
  hash: string,
  revive: (stored: unknown) => T = (stored) => stored as T,
): Promise<(IdempotentResult<T> & { replayed: true }) | 'in-flight' | 'expired' | null> {
  const row = await keyRow(db, owner, key);
  if (!row) return null;
  if (row.expired) return 'expired';
  if (row.requestHash !== hash) {
    throw new HttpError(422, WALLET_MESSAGES.idempotencyKeyReused, [
      { field: 'Idempotency-Key', message: WALLET_MESSAGES.idempotencyKeyReused },
    ]);
  }
  if (row.statusCode === null) return 'in-flight';
  return { statusCode: row.statusCode, body: revive(row.response), replayed: true };
}

/** The owner's row of the key, from the owner's table. */
async function keyRow(db: Executor, owner: KeyOwner, key: string) {
  const columns = <K extends typeof idempotencyKeys | typeof operatorIdempotencyKeys>(k: K) => ({
    requestHash: k.requestHash,
    statusCode: k.statusCode,
    response: k.response,
    expired: sql<boolean>`${k.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
  });
  if ('memberId' in owner) {
    const k = idempotencyKeys;
    const [row] = await db
      .select(columns(k))
      .from(k)
      .where(and(eq(k.memberId, owner.memberId), eq(k.key, key)));
    return row;
  }
  const k = operatorIdempotencyKeys;
  const [row] = await db
    .select(columns(k))
    .from(k)
    .where(and(eq(k.operatorId, owner.operatorId), eq(k.key, key)));
  return row;
}

async function memberExists(db: Executor, memberId: number): Promise<boolean> {
  const rows = await db.select({ id: members.id }).from(members).where(eq(members.id, memberId));
  return rows.length > 0;
}

/**
 * Claims a member's key in the statement that first locks the member's wallet; answers whether
 * it was claimed (no row: the key is held, or the member is gone). The claim and the stored answer
 * are every money request's two extra statements: named statements of plain SQL text (planned
 * once per connection), not drizzle's insert/update builders (their per-request cost showed in the
 * parking bench's profile).
 */
async function claimMemberKey(tx: Tx, memberId: number, key: string, hash: string): Promise<boolean> {
  const claimed = await queryRowsNamed<{ key: string }>(
    tx,
    'idempotency_claim',
    sql`with wallet as (select id from members where id = ${memberId} for no key update)
        insert into idempotency_keys (member_id, key, request_hash) select id, ${key}, ${hash} from wallet
        on conflict (member_id, key) do update set request_hash = excluded.request_hash, status_code = null, response = null, created_at = now()
        where idempotency_keys.created_at < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})
        returning key`,
  );
  return claimed.length > 0;
}

async function storeMemberAnswer(tx: Tx, memberId: number, key: string, result: IdempotentResult<unknown>) {
  await queryRowsNamed(
    tx,
    'idempotency_store',
    sql`update idempotency_keys set status_code = ${result.statusCode}, response = ${JSON.stringify(result.body)}::jsonb
        where member_id = ${memberId} and key = ${key}`,
  );
}

/**
 * Claims an operator's key: the insert that waits on the key's row while another transaction
 * holds it (no wallet here, nor any lock taken before it), or takes over a key older than 24 h.
 */
async function claimOperatorKey(tx: Tx, operatorId: number, key: string, hash: string): Promise<boolean> {
  const k = operatorIdempotencyKeys;
  const claimed = await tx
    .insert(k)
    .values({ operatorId, key, requestHash: hash })
    .onConflictDoUpdate({
      target: [k.operatorId, k.key],
      set: { requestHash: hash, statusCode: null, response: null, createdAt: sql`now()` },
      setWhere: sql`${k.createdAt} < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`,
    })
    .returning({ key: k.key });
  return claimed.length > 0;
}

async function storeOperatorAnswer(tx: Tx, operatorId: number, key: string, result: IdempotentResult<unknown>) {
  const k = operatorIdempotencyKeys;
  await tx
    .update(k)
    .set({ statusCode: result.statusCode, response: result.body })
    .where(and(eq(k.operatorId, operatorId), eq(k.key, key)));
}

/**
 * Runs an operation exactly once per (owner, Idempotency-Key): a money move of a member's, or a
 * write an operator's API key sends.
 *
 * In one transaction: claims the key (INSERT … ON CONFLICT), for a member in the statement that
 * first locks the member's wallet (the members row, FOR NO KEY UPDATE: every money transaction
 * takes that lock first, ledger.ts's lockWallet, so two of them never wait for each other in
 * opposite orders), runs `run(tx, key, prepared)`, stores its answer, commits. A concurrent request
 * with the same key waits (on the wallet lock, or on the operator's key row) until the first
 * commits, then reads its answer.
 * - same key, same scope and body: the first answer again, nothing runs (replayed = true);
 * - same key, another scope or body: HttpError 422;
 * - `run` throws: everything rolls back, the key too, so a retry runs again;
 * - the transaction loses a deadlock or a serialization check: it runs again, up to 3 times, then
 *   answers 409 (every route that uses it declares it).
 * `prepare`, when given, runs first and outside any transaction, once the key is known to hold no
 * answer: the card charge of Add Money and Subscribe (charges.ts), whose result `run` records.
 * `beforeRun` runs in the transaction before `run`: the auto-reload that covers the payment.
 * Only what `run` returns is stored (2xx answers); keys older than 24 h are reused as new.
 */
export async function withIdempotency<T, P = undefined>(
  db: Db,
  opts: KeyOwner & { key: string; scope: string; body: unknown; revive?: (stored: unknown) => T },
  run: (tx: Tx, key: string, prepared: P) => Promise<IdempotentResult<T>>,
  prepare?: (key: string, keyExpired: boolean) => Promise<P>,
  beforeRun?: (tx: Tx) => Promise<unknown>,
): Promise<IdempotentResult<T> & { replayed: boolean }> {
  const hash = requestHash(opts.scope, opts.body);
  const memberId = 'memberId' in opts ? opts.memberId : null;
  const operatorId = 'operatorId' in opts ? opts.operatorId : null;
  // A member gone while their token still passes (the session cache) is charged nothing: 404.
  const memberGone = async (ex: Executor) => memberId !== null && !(await memberExists(ex, memberId));
  let prepared = undefined as P;
  if (prepare) {
    const before = await storedAnswer<T>(db, opts, opts.key, hash, opts.revive);
    if (before === 'in-flight') throw new HttpError(409, WALLET_MESSAGES.idempotencyKeyInFlight);
    if (before && before !== 'expired') return before;
    if (!before && (await memberGone(db))) throw notFound();
    prepared = await prepare(opts.key, before === 'expired');
  }
  for (let attempt = 0, conflicts = 0; ; attempt++) {
    let out: (IdempotentResult<T> & { replayed: boolean }) | null;
    try {
      out = await db.transaction(async (tx) => {
        const claimed =
          memberId !== null
            ? await claimMemberKey(tx, memberId, opts.key, hash)
            : await claimOperatorKey(tx, operatorId!, opts.key, hash);
        if (claimed) {
          await beforeRun?.(tx);
          const result = await run(tx, opts.key, prepared);
          if (memberId !== null) await storeMemberAnswer(tx, memberId, opts.key, result);
          else await storeOperatorAnswer(tx, operatorId!, opts.key, result);
          return { ...result, replayed: false };
        }
        const stored = await storedAnswer<T>(tx, opts, opts.key, hash, opts.revive);
        if (stored === 'in-flight') throw new HttpError(409, WALLET_MESSAGES.idempotencyKeyInFlight);
        // Nothing claimed and nothing stored: for a member, the claim found no wallet to lock, so
        // the member is gone (their token still passed): 404, as postEntry's.
        if (stored === null && (await memberGone(tx))) throw notFound();
        // null: the holder rolled back between our statements: claim again.
        return stored === 'expired' ? null : stored;
      });
    } catch (err) {
      if (!isTransactionConflict(err)) throw err;
      if (++conflicts > CONFLICT_RETRIES)
        throw new HttpError(409, memberId !== null ? WALLET_MESSAGES.walletBusy : WALLET_MESSAGES.requestBusy);
      continue;
    }
    if (out) return out;
    if (attempt >= 3) throw new HttpError(409, WALLET_MESSAGES.idempotencyKeyInFlight);
  }
}

/**
 * The route form: reads the header and the member, runs withIdempotency, sets the status and the
 * `Idempotent-Replayed: true` header on a replay, and returns the body for Fastify to send. A
 * payment the wallet cannot make but auto-reload can cover is run again after the reload
 * (auto-reload.ts's withReloadCover); a debit that marked the auto-reload due has it run after
 * COMMIT (never throws; the wallet job retries). Every money route answers through here: one rule.
 */
export async function idempotent<T, P = undefined>(
  req: FastifyRequest,
  reply: FastifyReply,
  scope: string,
  run: (tx: Tx, key: string, prepared: P) => Promise<IdempotentResult<T>>,
  prepare?: (key: string, keyExpired: boolean) => Promise<P>,
  oneStatement?: OneStatement<T>,
): Promise<T> {
  const key = idempotencyKeyOf(req);
  const memberId = req.member.memberId;
  const wallet = req.server.wallet;
  if (oneStatement) {
    const done = await oneStatementFirst(oneStatement, key, requestHash(scope, req.body));
    if (done) {
      if (done.reloadDue) await wallet.reloadIfDue(memberId);
      void reply.code(done.statusCode);
      return done.body;
    }
  }
  const revive = oneStatement?.revive;
  const result = await withReloadCover(wallet, memberId, (recordReload) =>
    withIdempotency(
      req.server.db,
      { memberId, key, scope, body: req.body, ...(revive ? { revive } : {}) },
      run,
      prepare,
      recordReload,
    ),
  );
  if (result.replayed) void reply.header('idempotent-replayed', 'true');
  else if (result.reloadDue) await wallet.reloadIfDue(memberId);
  void reply.code(result.statusCode);
  return result.body;
}

/**
 * A money route's common case in one round trip: one autocommit statement that claims the key by
 * inserting it with its answer, after its own writes (parking/start-statement.ts's startAnswered).
 * A key already held fails that insert on the key's unique index, so the statement writes
 * nothing; so does any rule the statement does not pass. Either way `run` answers null (or the
 * statement fails with a unique violation or a lost deadlock, which changes nothing) and the
 * request takes the transaction path, which replays, waits, takes an expired key over or gives
 * the precise refusal. `run` must check the request's session version itself when the route reads
 * it in its statement (auth-plugin.ts's sessionInQuery), before it answers null.
 */
export interface OneStatement<T> {
  run: (key: string, requestHash: string) => Promise<IdempotentResult<T> | null>;
  /** The answer the statement stored, back to the body (for a replay); the transaction path's stored bodies pass through. */
  revive: (stored: unknown) => T;
  /** When the statement failed before `run` could check the session (a unique violation, a lost deadlock): checks it. */
  checkSession: () => Promise<void>;
}

async function oneStatementFirst<T>(
  o: OneStatement<T>,
  key: string,
  hash: string,
): Promise<IdempotentResult<T> | null> {
  try {
    return await o.run(key, hash);
  } catch (err) {
    if (!isUniqueViolation(err) && !isTransactionConflict(err)) throw err;
    await o.checkSession();
    return null;
  }
}

/** Deletes keys older than 24 hours, members' and operators' (the wallet job runs it). */
export async function purgeExpiredKeys(db: Executor): Promise<number> {
  const old = (k: typeof idempotencyKeys | typeof operatorIdempotencyKeys) =>
    lt(k.createdAt, sql`now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`);
  const ofMembers = await db.delete(idempotencyKeys).where(old(idempotencyKeys)).returning({ k: idempotencyKeys.key });
  const ofOperators = await db
    .delete(operatorIdempotencyKeys)
    .where(old(operatorIdempotencyKeys))
    .returning({ k: operatorIdempotencyKeys.key });
  return ofMembers.length + ofOperators.length;
}

/**
 * Forgets a member's key and its stored answer, so a retry with it runs again: for a request whose
 * answer was stored before a step after COMMIT (a card refund sent to the provider) was refused and
 * undone.
 */
export async function forgetKey(db: Executor, memberId: number, key: string): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.memberId, memberId), eq(idempotencyKeys.key, key)));
}

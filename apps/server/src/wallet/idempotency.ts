import { createHash } from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { WALLET_MESSAGES } from '@parkit/contract';
import { queryRowsNamed, type Db, type Executor, type Tx } from '../db/client.ts';
import { idempotencyKeys } from '../db/schema/index.ts';
import { HttpError, notFound } from '../lib/http-error.ts';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Keys are kept this long per member; an older key counts as new. */
export const IDEMPOTENCY_TTL_HOURS = 24;

export interface IdempotentResult<T> {
  statusCode: number;
  body: T;
}

/** The request's Idempotency-Key: 400 when missing or not 1 to 255 visible ASCII characters. */
export function idempotencyKeyOf(req: FastifyRequest): string {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined || raw === '') {
    throw new HttpError(400, WALLET_MESSAGES.idempotencyKeyRequired, [{ field: 'Idempotency-Key', message: WALLET_MESSAGES.idempotencyKeyRequired }]);
  }
  if (typeof raw !== 'string' || !/^[\x21-\x7e]{1,255}$/.test(raw)) {
    throw new HttpError(400, WALLET_MESSAGES.idempotencyKeyFormat, [{ field: 'Idempotency-Key', message: WALLET_MESSAGES.idempotencyKeyFormat }]);
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
      // Stryker disable next-line StringLiteral: each member is a quoted key and a value that ends itself, so no separator is needed for two bodies to differ
      .join(',')}}`;
  }
  return JSON.stringify(v ?? null);
}

export function requestHash(scope: string, body: unknown): string {
  return createHash('sha256').update(`${scope}\n${canonical(body)}`).digest('hex');
}

/**
 * Runs a money-moving operation exactly once per (member, Idempotency-Key).
 *
 * In one transaction: claims the key (INSERT … ON CONFLICT; a concurrent request with the same key
 * waits on the unique key until the first commits), runs `run(tx, key)`, stores its answer, commits.
 * - same key, same scope and body: the first answer again, nothing runs (replayed = true);
 * - same key, another scope or body: HttpError 422;
 * - `run` throws: everything rolls back, the key too, so a retry runs again (charge the provider
 *   with an idempotency key derived from `key` so that a retry cannot charge twice).
 * Only what `run` returns is stored (2xx answers); keys older than 24 h are reused as new.
 */
export async function withIdempotency<T>(
  db: Db,
  opts: { memberId: number; key: string; scope: string; body: unknown },
  run: (tx: Tx, key: string) => Promise<IdempotentResult<T>>,
): Promise<IdempotentResult<T> & { replayed: boolean }> {
  const hash = requestHash(opts.scope, opts.body);
  const where = and(eq(idempotencyKeys.memberId, opts.memberId), eq(idempotencyKeys.key, opts.key));
  // Stryker disable next-line UpdateOperator: a second attempt needs the claimed-again path below, which no database reaches (see there)
  for (let attempt = 0; ; attempt++) {
    const out = await db.transaction(async (tx) => {
      // The claim and the stored answer are every money request's two extra statements: named
      // statements of plain SQL text (planned once per connection), not drizzle's insert/update
      // builders (their per-request cost showed in the parking bench's profile).
      const claimed = await queryRowsNamed<{ key: string }>(
        tx,
        // Stryker disable next-line StringLiteral: the name only lets PostgreSQL plan the statement once per connection; unnamed, it answers the same
        'idempotency_claim',
        sql`insert into idempotency_keys (member_id, key, request_hash) values (${opts.memberId}, ${opts.key}, ${hash})
            on conflict (member_id, key) do update set request_hash = excluded.request_hash, status_code = null, response = null, created_at = now()
            where idempotency_keys.created_at < now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})
            returning key`,
      ).catch((err: unknown) => {
        // The key's foreign key on members: the member is gone (its token still passed), 404 as postEntry's.
        throw isForeignKeyViolation(err) ? notFound() : err;
      });
      if (claimed.length > 0) {
        const result = await run(tx, opts.key);
        await queryRowsNamed(
          tx,
          // Stryker disable next-line StringLiteral: as the claim's name above
          'idempotency_store',
          sql`update idempotency_keys set status_code = ${result.statusCode}, response = ${JSON.stringify(result.body)}::jsonb
              where member_id = ${opts.memberId} and key = ${opts.key}`,
        );
        return { ...result, replayed: false };
      }
      const [row] = await tx.select().from(idempotencyKeys).where(where);
      // The holder rolled back between our statements: claim again. (Neither database reaches it
      // today: the claim's ON CONFLICT locks the row it met until this transaction ends.)
      if (!row) return null;
      if (row.requestHash !== hash) {
        throw new HttpError(422, WALLET_MESSAGES.idempotencyKeyReused, [{ field: 'Idempotency-Key', message: WALLET_MESSAGES.idempotencyKeyReused }]);
      }
      if (row.statusCode === null) throw new HttpError(409, WALLET_MESSAGES.idempotencyKeyInFlight);
      return { statusCode: row.statusCode, body: row.response as T, replayed: true };
    });
    if (out) return out;
    // Stryker disable next-line all: only after `!row` above, which no database reaches
    if (attempt >= 3) throw new HttpError(409, WALLET_MESSAGES.idempotencyKeyInFlight);
  }
}

/**
 * The route form: reads the header and the member, runs withIdempotency, sets the status and the
 * `Idempotent-Replayed: true` header on a replay, and returns the body for Fastify to send.
 */
export async function idempotent<T>(
  req: FastifyRequest,
  reply: FastifyReply,
  scope: string,
  run: (tx: Tx, key: string) => Promise<IdempotentResult<T>>,
): Promise<T> {
  const key = idempotencyKeyOf(req);
  const result = await withIdempotency(req.server.db, { memberId: req.member.memberId, key, scope, body: req.body }, run);
  if (result.replayed) void reply.header('idempotent-replayed', 'true');
  void reply.code(result.statusCode);
  return result.body;
}

function isForeignKeyViolation(err: unknown): boolean {
  // Stryker disable next-line OptionalChaining: drizzle wraps every failed query, the driver's error as its cause
  return (err as { cause?: { code?: string } }).cause?.code === '23503';
}

/** Deletes keys older than 24 hours (the wallet job runs it). */
export async function purgeExpiredKeys(db: Executor): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, sql`now() - make_interval(hours => ${IDEMPOTENCY_TTL_HOURS})`))
    .returning({ k: idempotencyKeys.key });
  return rows.length;
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { and, asc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { operatorApiKeys, type KeyPurpose } from '../db/schema/index.ts';
import { KEY_CHANNEL, type KeyCache } from './key-cache.ts';

const PREFIX_CHARS = 8;
/** pk_ + 8 characters of lookup prefix + 43 characters of secret (32 bytes, base64url). */
const KEY_PATTERN = /^pk_[A-Za-z0-9_-]{8}[A-Za-z0-9_-]{43}$/;

const sha256 = (key: string) => createHash('sha256').update(key).digest('hex');

export interface CreatedKey {
  id: number;
  /** Shown once, at creation; never stored. */
  key: string;
  prefix: string;
}

export async function createKey(
  db: Executor,
  operatorId: number,
  label = '',
  purpose: KeyPurpose = 'enforcement',
): Promise<CreatedKey> {
  const prefix = `pk_${randomBytes(6).toString('base64url').slice(0, PREFIX_CHARS)}`;
  const key = `${prefix}${randomBytes(32).toString('base64url')}`;
  const [row] = await db
    .insert(operatorApiKeys)
    .values({ operatorId, prefix, keyHash: sha256(key), label, purpose })
    .returning({ id: operatorApiKeys.id });
  return { id: row!.id, key, prefix };
}

/** The operator's keys of one purpose (null: every purpose), oldest first. */
export async function listKeys(db: Executor, operatorId: number, purpose: KeyPurpose | null = 'enforcement') {
  return db
    .select({
      id: operatorApiKeys.id,
      prefix: operatorApiKeys.prefix,
      purpose: operatorApiKeys.purpose,
      label: operatorApiKeys.label,
      createdAt: operatorApiKeys.createdAt,
      lastUsedAt: operatorApiKeys.lastUsedAt,
      revokedAt: operatorApiKeys.revokedAt,
    })
    .from(operatorApiKeys)
    .where(
      and(
        eq(operatorApiKeys.operatorId, operatorId),
        purpose === null ? undefined : eq(operatorApiKeys.purpose, purpose),
      ),
    )
    .orderBy(asc(operatorApiKeys.id));
}

/**
 * Revokes the operator's live key of that prefix and purpose, and tells every process in the same
 * statement (KEY_CHANNEL, key-cache.ts); the caller forgets it in its own process once it committed.
 */
export async function revokeKey(
  db: Executor,
  operatorId: number,
  prefix: string,
  purpose: KeyPurpose = 'enforcement',
): Promise<boolean> {
  const revoked = db.$with('revoked').as(
    db
      .update(operatorApiKeys)
      .set({ revokedAt: new Date() })
      .where(
        and(
          eq(operatorApiKeys.operatorId, operatorId),
          eq(operatorApiKeys.prefix, prefix),
          eq(operatorApiKeys.purpose, purpose),
          isNull(operatorApiKeys.revokedAt),
        ),
      )
      .returning({ prefix: operatorApiKeys.prefix }),
  );
  const rows = await db
    .with(revoked)
    .select({ n: sql`pg_notify(${KEY_CHANNEL}, ${revoked.prefix})` })
    .from(revoked);
  return rows.length > 0;
}

/**
 * The key row a header's key matches by its hash (constant-time compare), revoked or not; null for
 * anything else (missing, malformed, unknown prefix, wrong secret, a key of another purpose). The
 * row comes from the process's cache when it is trusted there (key-cache.ts), else one read.
 */
export async function identifyKey(
  db: Executor,
  cache: KeyCache,
  key: string | undefined,
  purpose: KeyPurpose = 'enforcement',
): Promise<{ id: number; operatorId: number; revoked: boolean } | null> {
  if (!key || !KEY_PATTERN.test(key)) return null;
  const prefix = key.slice(0, 3 + PREFIX_CHARS);
  let row = cache.get(prefix);
  if (row === undefined) {
    const ticket = cache.ticket();
    // The prefix is unique across all keys, revoked ones included.
    const [read] = await db
      .select({
        id: operatorApiKeys.id,
        operatorId: operatorApiKeys.operatorId,
        purpose: operatorApiKeys.purpose,
        keyHash: operatorApiKeys.keyHash,
        revoked: sql<boolean>`${operatorApiKeys.revokedAt} is not null`,
      })
      .from(operatorApiKeys)
      .where(eq(operatorApiKeys.prefix, prefix))
      .limit(1);
    cache.remember(prefix, read, ticket);
    row = read;
  }
  if (!row || row.purpose !== purpose) return null;
  const a = Buffer.from(row.keyHash, 'hex');
  const b = Buffer.from(sha256(key), 'hex');
  return a.length === b.length && timingSafeEqual(a, b)
    ? { id: row.id, operatorId: row.operatorId, revoked: row.revoked }
    : null;
}

/** The live key a header names; null for anything else. */
export async function verifyKey(
  db: Executor,
  cache: KeyCache,
  key: string | undefined,
  purpose: KeyPurpose = 'enforcement',
): Promise<{ id: number; operatorId: number } | null> {
  const row = await identifyKey(db, cache, key, purpose);
  return row && !row.revoked ? { id: row.id, operatorId: row.operatorId } : null;
}

/**
 * Marks a key as used now, at most once a minute (the console shows when a city's key was last
 * used; a feed read every second need not write every second).
 */
export async function markKeyUsed(db: Executor, id: number): Promise<void> {
  await db
    .update(operatorApiKeys)
    .set({ lastUsedAt: sql`now()` })
    .where(
      and(
        eq(operatorApiKeys.id, id),
        or(isNull(operatorApiKeys.lastUsedAt), lt(operatorApiKeys.lastUsedAt, sql`now() - interval '1 minute'`)),
      ),
    );
}

/**
 * What the audit keeps of a presented key: a real key's public prefix ('pk_' + 8, as listings show
 * it), and of anything else at most as many characters and at most half of it, so a secret
 * pasted by mistake is never stored whole. Null when nothing was presented.
 */
export function presentedPrefix(key: string | undefined): string | null {
  if (!key) return null;
  return key.slice(0, Math.min(3 + PREFIX_CHARS, Math.floor(key.length / 2)));
}

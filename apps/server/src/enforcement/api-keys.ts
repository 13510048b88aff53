import {
  OPERATOR_KEY_MESSAGES as M,
  type ApiKeyPurpose,
  type CreatedApiKey,
  type OperatorApiKey,
} from '@parkit/contract';
import type { Db, Executor } from '../db/client.ts';
import { audit, type Actor } from '../infra/audit-log.ts';
import { notFound } from '../lib/http-error.ts';
import { createKey, listKeys, revokeKey } from './api-key-repository.ts';

type KeyRow = Awaited<ReturnType<typeof listKeys>>[number];

const view = (row: KeyRow): OperatorApiKey => ({
  Prefix: row.prefix,
  Purpose: row.purpose,
  Label: row.label,
  CreatedAt: row.createdAt.toISOString(),
  LastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  RevokedAt: row.revokedAt?.toISOString() ?? null,
});

/** Every key of the operator, officers' and CDS, live and revoked, oldest first. */
export async function keysOf(db: Executor, operatorId: number): Promise<OperatorApiKey[]> {
  return (await listKeys(db, operatorId, null)).map(view);
}

/**
 * Makes a key and writes `key.create` to the audit log in one transaction: the log names the key by
 * its prefix and never holds the secret, which only the answer carries.
 */
export async function issueKey(
  db: Db,
  operatorId: number,
  actor: Actor,
  wanted: { purpose: ApiKeyPurpose; label: string },
): Promise<CreatedApiKey> {
  return db.transaction(async (tx) => {
    const made = await createKey(tx, operatorId, wanted.label, wanted.purpose);
    const after = { Prefix: made.prefix, Purpose: wanted.purpose, Label: wanted.label };
    await audit(tx, {
      operatorId,
      actor,
      action: 'key.create',
      entity: 'key',
      entityId: made.prefix,
      before: null,
      after,
    });
    const now = new Date().toISOString();
    return { ...after, Key: made.key, CreatedAt: now, LastUsedAt: null, RevokedAt: null };
  });
}

/**
 * Revokes a live key of the operator, audited (`key.revoke`) in the same transaction; 404 for a key
 * that is not the operator's or is already revoked (the UPDATE's own WHERE decides, so two revokes
 * at once write one entry). `purposes` narrows it (the command line's --cds).
 */
export async function withdrawKey(
  db: Db,
  operatorId: number,
  actor: Actor,
  prefix: string,
  purposes: readonly ApiKeyPurpose[] = ['enforcement', 'cds'],
): Promise<void> {
  await db.transaction(async (tx) => {
    for (const purpose of purposes) {
      if (!(await revokeKey(tx, operatorId, prefix, purpose))) continue;
      await audit(tx, {
        operatorId,
        actor,
        action: 'key.revoke',
        entity: 'key',
        entityId: prefix,
        before: { Prefix: prefix, Purpose: purpose, Revoked: false },
        after: { Prefix: prefix, Purpose: purpose, Revoked: true },
      });
      return;
    }
    throw notFound(M.keyNotFound);
  });
}

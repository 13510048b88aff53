import { NotifiedCache } from '../infra/tickets.ts';
import type { KeyPurpose } from '../db/schema/index.ts';

/** The channel on which a key's revocation is told to every process (payload: the key's prefix). */
export const KEY_CHANNEL = 'parkit_operator_keys';

/** An operator's API key as a request's check needs it: never the secret, only its hash. */
export interface KeyRow {
  id: number;
  operatorId: number;
  purpose: KeyPurpose;
  keyHash: string;
  revoked: boolean;
}

/**
 * Key prefix -> its row, per process, so a key's checks after the first need no statement to find
 * it (the plate check's one round trip, docs/enforcement.md#speed-one-plan-for-every-check). The
 * prefix is unique across all keys, revoked ones included. The only change of a row that matters
 * here is its revocation (a key is never un-revoked, and a new key has a new prefix): revokeKey()
 * sends pg_notify on KEY_CHANNEL in its own statement, every process forgets the prefix, and the
 * process that revoked forgets it once that committed (withdrawKey's route). A revoked row may stay:
 * it answers 401 as the database would. The rule of trust is NotifiedCache's (infra/tickets.ts).
 */
export class KeyCache extends NotifiedCache<string, KeyRow> {}

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's cache of operators' API keys (app.ts). */
    operatorKeys: KeyCache;
  }
}

import { z } from 'zod';
import { OperatorParams } from './operator.ts';

/**
 * An operator's API keys, kept in the console (docs/operations.md#api-keys): an officers' key opens
 * the plate check and APDS sessions; a city's CDS key opens the CDS Events and Metrics feed. A key
 * is shown once, when it is made; only its hash is kept. Owners make, list and revoke keys, audited.
 */
export const OPERATOR_KEY_MESSAGES = {
  purposeInvalid: 'Choose an officers’ key or a city’s CDS key',
  labelTooLong: 'A label has at most 100 characters',
  keyNotFound: 'Key not found',
} as const;
const M = OPERATOR_KEY_MESSAGES;

export const ApiKeyPurpose = z.enum(['enforcement', 'cds'], { error: M.purposeInvalid });
export type ApiKeyPurpose = z.infer<typeof ApiKeyPurpose>;

export const OperatorApiKey = z.object({
  /** The key's public start, `pk_` and 8 characters: how a listing and the audit log name it. */
  Prefix: z.string(),
  Purpose: ApiKeyPurpose,
  Label: z.string(),
  CreatedAt: z.string(),
  LastUsedAt: z.string().nullable(),
  RevokedAt: z.string().nullable(),
});
export type OperatorApiKey = z.infer<typeof OperatorApiKey>;

/** GET /api/Operator/{operatorId}/Keys: every key, live and revoked, oldest first. */
export const OperatorApiKeyList = z.array(OperatorApiKey);

/** POST /api/Operator/{operatorId}/Keys. */
export const CreateApiKeyRequest = z.object({
  Purpose: ApiKeyPurpose,
  Label: z.string({ error: M.labelTooLong }).trim().max(100, M.labelTooLong).default(''),
});
export type CreateApiKeyRequest = z.input<typeof CreateApiKeyRequest>;

/** The new key with its secret, `Key`, which is never shown again. */
export const CreatedApiKey = OperatorApiKey.extend({ Key: z.string() });
export type CreatedApiKey = z.infer<typeof CreatedApiKey>;

export const OperatorKeyParams = OperatorParams.extend({
  prefix: z.string().regex(/^pk_[A-Za-z0-9_-]{8}$/, M.keyNotFound),
});

import { v5 } from 'uuid';

/**
 * Stable Curb Data Specification ids (docs/open-data.md#ids): a UUID v5 (RFC 4122, SHA-1, name-based)
 * of a name in ParkIt's own namespace, so the same zone or policy version always has the same id,
 * on every server, without storing it. Ids that came from a CDS feed are stored and kept instead.
 */

/** ParkIt's namespace for its name-based ids (a fixed random UUID). */
export const PARKIT_CDS_NAMESPACE = '3b0f6c8e-5a1d-4f27-9c43-7e2a61d0b5f9';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(s: unknown): s is string {
  return typeof s === 'string' && UUID.test(s);
}

/** A name-based UUID (v5, RFC 9562) in ParkIt's namespace, by the uuid library. */
export const uuidV5 = (name: string, namespace = PARKIT_CDS_NAMESPACE): string => v5(name, namespace);

/** A zone's curb_zone_id when it has none stored. */
export const zoneCdsId = (zoneId: number) => uuidV5(`parkit:zone:${zoneId}`);

/** The curb_policy_id of one CDS Policy of a price policy version (key: span Id, span Id/class, or '*'). */
export const versionPolicyCdsId = (versionId: number, key: string) =>
  uuidV5(`parkit:policy-version:${versionId}:${key}`);

/** The same, for a zone still priced by its preset columns (no version yet). */
export const presetPolicyCdsId = (zoneId: number, key: string) => uuidV5(`parkit:zone-preset:${zoneId}:${key}`);

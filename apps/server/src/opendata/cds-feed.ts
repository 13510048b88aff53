/**
 * The Curbs API feed (docs/open-data.md): every operator's zones as Curb Zones and their price
 * policies as CDS Policies, read in a few statements and built in memory, then filtered, ordered
 * and paged as curbs.md's query endpoints say.
 */
import { sql } from 'drizzle-orm';
import { PolicyBody } from '@parkit/contract';
import { queryRows, type Executor } from '../db/client.ts';
import { presetPolicy } from '../pricing/index.ts';
import { presetPolicyCdsId, versionPolicyCdsId, zoneCdsId } from './cds-ids.ts';
import { bodyToCdsPolicies } from './cds-policy.ts';
import { distanceM, intersectsBox, zoneGeometry, type Box } from './cds-geometry.ts';
import type { CdsCurbZone, CdsPolicy } from './cds-types.ts';

interface ZoneRow {
  id: number;
  operator_id: number;
  timezone: string;
  zone_number: string;
  name: string;
  address: string;
  lat: number;
  lng: number;
  curb: unknown;
  capacity: number;
  rate_cents: number;
  max_stay_minutes: number;
  paid_days: number[] | string;
  paid_from_minute: number;
  paid_until_minute: number;
  price_policy_id: number | null;
  cds_id: string | null;
  created_ms: number;
  updated_ms: number;
  retired_ms: number | null;
}

interface VersionRow {
  id: number;
  policy_id: number;
  operator_id: number;
  timezone: string;
  effective_ms: number;
  created_ms: number;
  body: unknown;
  cds_ids: Record<string, string> | null;
}

/** One version's CDS Policies and when they apply. */
interface PublishedVersion {
  policyId: number;
  effectiveMs: number;
  createdMs: number;
  policies: CdsPolicy[];
}

export interface CurbData {
  /** Time zones of the operators in the feed. */
  timeZones: string[];
  zones: { row: ZoneRow; geometry: CdsCurbZone['geometry'] & object; version: PublishedVersion | null }[];
  versions: PublishedVersion[];
  /** Zones still priced by their preset columns: their policies, by zone id. */
  presets: Map<number, CdsPolicy[]>;
  lastUpdatedMs: number;
}

const ms = (col: string) => sql.raw(`(extract(epoch from ${col}) * 1000)::float8`);

function smallints(v: number[] | string): number[] {
  if (Array.isArray(v)) return v.map(Number);
  return v.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
}

/** Everything the feed publishes, for one operator or all, as of `atMs` (which versions are in force). */
export async function loadCurbData(db: Executor, operatorId: number | undefined, atMs: number): Promise<CurbData> {
  const only = operatorId === undefined ? sql`true` : sql`o.id = ${operatorId}`;
  const zones = await queryRows<ZoneRow>(
    db,
    sql`select z.id, z.operator_id, o.timezone, z.zone_number, z.name, z.address, z.lat, z.lng, z.curb, z.capacity,
          z.rate_cents, z.max_stay_minutes, z.paid_days, z.paid_from_minute, z.paid_until_minute,
          z.price_policy_id, z.cds_id::text as cds_id, ${ms('z.created_at')} as created_ms,
          ${ms('z.updated_at')} as updated_ms, ${ms('z.retired_at')} as retired_ms
        from zones z join operators o on o.id = z.operator_id
        where ${only} order by z.operator_id, z.zone_number`,
  );
  const versionRows = await queryRows<VersionRow>(
    db,
    sql`select v.id, v.policy_id, p.operator_id, o.timezone, ${ms('v.effective_from')} as effective_ms,
          ${ms('v.created_at')} as created_ms, v.body, v.cds_ids
        from price_policy_versions v join price_policies p on p.id = v.policy_id join operators o on o.id = p.operator_id
        where ${only} order by v.policy_id, v.effective_from, v.version`,
  );
  const timeZones = await queryRows<{ timezone: string }>(
    db,
    sql`select distinct o.timezone from operators o where ${only} order by 1`,
  );
  const versions = versionRows.map((v): PublishedVersion => {
    const body = PolicyBody.parse(v.body);
    const created = Math.round(Number(v.created_ms));
    const id = (key: string) => v.cds_ids?.[key] ?? versionPolicyCdsId(v.id, key);
    return {
      policyId: v.policy_id,
      effectiveMs: Math.round(Number(v.effective_ms)),
      createdMs: created,
      policies: bodyToCdsPolicies(body, id, created, v.timezone),
    };
  });
  const byPolicy = new Map<number, PublishedVersion[]>();
  for (const v of versions) byPolicy.set(v.policyId, [...(byPolicy.get(v.policyId) ?? []), v]);
  const inForce = (policyId: number | null) => {
    if (policyId === null) return null;
    const list = (byPolicy.get(policyId) ?? []).filter((v) => v.effectiveMs <= atMs);
    return list.at(-1) ?? null;
  };
  const presets = new Map<number, CdsPolicy[]>();
  let lastUpdatedMs = 0;
  const out = zones.map((row) => {
    const z = {
      ...row,
      lat: Number(row.lat),
      lng: Number(row.lng),
      created_ms: Math.round(Number(row.created_ms)),
      updated_ms: Math.round(Number(row.updated_ms)),
      retired_ms: row.retired_ms === null ? null : Math.round(Number(row.retired_ms)),
    };
    const version = inForce(z.price_policy_id);
    if (!version) {
      const body = presetPolicy({
        rateCents: z.rate_cents,
        maxStayMinutes: z.max_stay_minutes,
        paidDays: smallints(z.paid_days),
        paidFromMinute: z.paid_from_minute,
        paidUntilMinute: z.paid_until_minute,
      });
      presets.set(
        z.id,
        bodyToCdsPolicies(body, (k) => presetPolicyCdsId(z.id, k), z.created_ms, z.timezone),
      );
    }
    lastUpdatedMs = Math.max(lastUpdatedMs, z.updated_ms, z.created_ms);
    return { row: z, geometry: zoneGeometry(z), version };
  });
  for (const v of versions) {
    lastUpdatedMs = Math.max(lastUpdatedMs, v.createdMs);
    if (v.effectiveMs <= atMs) lastUpdatedMs = Math.max(lastUpdatedMs, v.effectiveMs);
  }
  return { timeZones: timeZones.map((t) => t.timezone), zones: out, versions, presets, lastUpdatedMs };
}

/** A street address without its house number (curbs.md: street_name SHOULD NOT contain address numbers). */
export function streetName(address: string): string {
  return address.replace(/^\s*\d+[A-Za-z]?(-\d+[A-Za-z]?)?\s+/, '').trim();
}

function toCurbZone(z: CurbData['zones'][number], presets: CurbData['presets'], withGeometry: boolean): CdsCurbZone {
  const r = z.row;
  const policies = z.version?.policies ?? presets.get(r.id) ?? [];
  const lastUpdated = Math.max(
    r.updated_ms,
    ...(z.version ? [z.version.createdMs, Math.max(z.version.effectiveMs, 0)] : []),
  );
  const out: CdsCurbZone = {
    curb_zone_id: r.cds_id ?? zoneCdsId(r.id),
    ...(withGeometry ? { geometry: z.geometry } : {}),
    curb_policy_ids: policies.map((p) => p.curb_policy_id),
    published_date: r.created_ms,
    last_updated_date: lastUpdated,
    start_date: r.created_ms,
  };
  if (r.retired_ms !== null) out.end_date = r.retired_ms;
  out.name = r.name;
  out.user_zone_id = r.zone_number;
  const street = streetName(r.address);
  if (street) out.street_name = street;
  if (r.capacity > 0) out.num_spaces = r.capacity;
  return out;
}

export interface ZoneQuery {
  box?: Box;
  near?: { lat: number; lng: number; radiusCm: number };
  includeGeometry: boolean;
  atMs: number;
  /** Curb Area filter: ParkIt publishes no areas, so any area holds no zones. */
  area?: string;
}

const validAt = (r: ZoneRow & { retired_ms: number | null }, t: number) =>
  r.created_ms <= t && (r.retired_ms === null || t < r.retired_ms);

/** Query Curb Zones (curbs.md): valid at the time, in the box, within the radius (nearest first). */
export function queryZones(data: CurbData, q: ZoneQuery): CdsCurbZone[] {
  if (q.area !== undefined) return [];
  let list = data.zones.filter((z) => validAt(z.row, q.atMs));
  if (q.box) list = list.filter((z) => intersectsBox(z.geometry, q.box!));
  if (q.near) {
    const { lat, lng, radiusCm } = q.near;
    list = list
      .map((z) => ({ z, d: distanceM(z.geometry, lat, lng) }))
      .filter((x) => x.d * 100 <= radiusCm)
      .sort((a, b) => a.d - b.d)
      .map((x) => x.z);
  }
  return list.map((z) => toCurbZone(z, data.presets, q.includeGeometry));
}

/** Fetch a Curb Zone (curbs.md): null when unknown, or not valid at `atMs` (unless historic ones are asked for). */
export function findZone(
  data: CurbData,
  id: string,
  atMs: number | undefined,
  showHistoric: boolean,
): CdsCurbZone | null {
  const z = data.zones.find((x) => (x.row.cds_id ?? zoneCdsId(x.row.id)) === id.toLowerCase());
  if (!z) return null;
  if (atMs !== undefined && !validAt(z.row, atMs)) return null;
  if (atMs === undefined && z.row.retired_ms !== null && z.row.retired_ms <= Date.now() && !showHistoric) return null;
  return toCurbZone(z, data.presets, true);
}

/**
 * Query Curb Policies (curbs.md): every policy a zone refers to now or will (versions in force now
 * and later ones, and the presets of zones without a policy); with `ids`, any version's. Each id once.
 */
export function queryPolicies(data: CurbData, ids: readonly string[] | undefined, nowMs: number): CdsPolicy[] {
  const current = new Set<PublishedVersion>();
  const byPolicy = new Map<number, PublishedVersion[]>();
  for (const v of data.versions) byPolicy.set(v.policyId, [...(byPolicy.get(v.policyId) ?? []), v]);
  for (const list of byPolicy.values()) {
    const upTo = list.filter((v) => v.effectiveMs <= nowMs);
    if (upTo.length > 0) current.add(upTo.at(-1)!);
    for (const v of list) if (v.effectiveMs > nowMs) current.add(v);
  }
  const candidates = ids
    ? [...data.versions.flatMap((v) => v.policies), ...[...data.presets.values()].flat()]
    : [...data.versions.filter((v) => current.has(v)).flatMap((v) => v.policies), ...[...data.presets.values()].flat()];
  const wanted = ids ? new Set(ids.map((i) => i.toLowerCase())) : null;
  const seen = new Set<string>();
  const out: CdsPolicy[] = [];
  for (const p of candidates) {
    if (seen.has(p.curb_policy_id) || (wanted && !wanted.has(p.curb_policy_id))) continue;
    seen.add(p.curb_policy_id);
    out.push(p);
  }
  return out;
}

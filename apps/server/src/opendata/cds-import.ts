/**
 * A CDS Curbs feed (zones and policies) into an operator's zones and price policies
 * (`npm run zones:import -- --cds URL_OR_FILE`, docs/open-data.md#importing-a-curbs-feed). Like the
 * zone file import (zones/zone-import.ts): every zone is checked and the refused ones reported
 * with their position and reason; nothing is written when one is refused unless the caller skips
 * them; the writes and their audit entry are one transaction. The feed's ids are kept (the zone's
 * curb_zone_id, each policy's curb_policy_id), so the feed published again is the same feed.
 */
import { createHash } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ZoneCurb, type PolicyBody } from '@parkit/contract';
import type { Db } from '../db/client.ts';
import { pricePolicies, pricePolicyVersions, zones } from '../db/schema/index.ts';
import { audit, type Actor } from '../infra/audit-log.ts';
import { isUniqueViolation } from '../db/errors.ts';
import {
  existingNumbers,
  insertZones,
  ZoneNumbersTaken,
  type NewZone,
  type OperatorRecord,
  type RefusedRow,
} from '../zones/index.ts';
import { isUuid, zoneCdsId } from './cds-ids.ts';
import { polygonCentre } from './cds-geometry.ts';
import { CdsPolicyRefused, cdsToBody } from './cds-policy-import.ts';
import type { CdsPolicy, CdsPolygon } from './cds-types.ts';

export class CdsFeedError extends Error {
  override name = 'CdsFeedError';
}

export interface CdsFeed {
  zones: unknown[];
  policies: unknown[];
}

export interface CdsImportReport {
  rows: number;
  valid: number;
  imported: number;
  /** Price policies written (one per distinct set of a zone's curb_policy_ids). */
  policies: number;
  refused: RefusedRow[];
}

const BATCH = 500;

/** The zones and policies of one or more CDS answers (envelopes with data.zones or data.policies), or of { zones, policies }. */
export function feedOf(docs: readonly unknown[]): CdsFeed {
  const feed: CdsFeed = { zones: [], policies: [] };
  let found = false;
  for (const doc of docs.flatMap((d) => (Array.isArray(d) ? d : [d]))) {
    const o = doc as { data?: { zones?: unknown; policies?: unknown }; zones?: unknown; policies?: unknown } | null;
    const holder = o && typeof o === 'object' ? (o.data && typeof o.data === 'object' ? o.data : o) : null;
    if (!holder) continue;
    if (Array.isArray(holder.zones)) {
      feed.zones.push(...(holder.zones as unknown[]));
      found = true;
    }
    if (Array.isArray(holder.policies)) {
      feed.policies.push(...(holder.policies as unknown[]));
      found = true;
    }
  }
  if (!found) throw new CdsFeedError('not a CDS Curbs feed: no data.zones nor data.policies');
  return feed;
}

const Zone = z.object({
  curb_zone_id: z.string().refine(isUuid, 'curb_zone_id must be a UUID'),
  geometry: z.unknown(),
  curb_policy_ids: z.array(z.string().refine(isUuid, 'curb_policy_ids must be UUIDs'), {
    error: 'curb_policy_ids is required',
  }),
  end_date: z.number().int().optional(),
  user_zone_id: z
    .string({ error: 'user_zone_id is required (it becomes the zone number drivers type)' })
    .transform((s) => s.trim().toUpperCase())
    .pipe(z.string().regex(/^[A-Z0-9][A-Z0-9-]{0,19}$/, 'user_zone_id must be 1 to 20 letters, digits or dashes')),
  name: z.string().trim().min(1).max(120, 'name: at most 120 characters').optional(),
  street_name: z.string().trim().min(1).max(200, 'street_name: at most 200 characters').optional(),
  num_spaces: z.number().int().min(0).max(100_000, 'num_spaces must be 0 to 100000').optional(),
});

const Policy = z.looseObject({
  curb_policy_id: z.string().refine(isUuid, 'curb_policy_id must be a UUID'),
  published_date: z.number().int(),
  priority: z.number().int(),
  rules: z.array(z.looseObject({ activity: z.string() })).min(1),
  time_spans: z.array(z.looseObject({})).optional(),
});

function reasons(issues: readonly z.core.$ZodIssue[]): string {
  return [
    ...new Set(
      issues.map((i) =>
        i.path.length && !i.message.startsWith(String(i.path[0])) ? `${i.path.join('.')}: ${i.message}` : i.message,
      ),
    ),
  ].join('; ');
}

/** The zone columns the preset-based screens still read, from the body's first span (docs/pricing.md#presets). */
function presetColumns(body: PolicyBody) {
  const s = body.Spans[0];
  const minute = (c: string | undefined, dflt: number) =>
    c === undefined ? dflt : Number(c.slice(0, 2)) * 60 + Number(c.slice(3));
  const from = minute(s?.From, 0);
  const until = minute(s?.Until, 1440);
  return {
    rateCents: s?.Rate[0]?.CentsPerHour ?? 0,
    maxStayMinutes: body.MaxStayMinutes,
    paidDays: s ? (s.Days ?? [1, 2, 3, 4, 5, 6, 7]) : [],
    paidFromMinute: from,
    paidUntilMinute: until === 0 || until <= from ? 1440 : until,
  };
}

interface ValidZone {
  row: number;
  zone: NewZone;
  policyKey: string;
  body: PolicyBody;
  ids: Record<string, string>;
}

/**
 * Checks every zone of the feed and writes the valid ones (see the file's comment). `now` decides
 * which zones have ended (end_date at or before it: refused, a retired zone is not imported). A
 * zone number or curb_zone_id taken between the check and the write (the tables' constraints)
 * rolls it all back: ZoneNumbersTaken, as the zone file import.
 */
export async function importCdsFeed(
  db: Db,
  operator: OperatorRecord,
  feed: CdsFeed,
  opts: { skipInvalid?: boolean; dryRun?: boolean; actor: Actor; now?: Date; source?: string },
): Promise<CdsImportReport> {
  const now = (opts.now ?? new Date()).getTime();
  const policies = new Map<string, CdsPolicy>();
  const badPolicies = new Map<string, string>();
  feed.policies.forEach((p, i) => {
    const parsed = Policy.safeParse(p);
    const id = (p as { curb_policy_id?: unknown } | null)?.curb_policy_id;
    if (!parsed.success) {
      if (typeof id === 'string') badPolicies.set(id.toLowerCase(), `policy ${i + 1}: ${reasons(parsed.error.issues)}`);
      return;
    }
    policies.set(parsed.data.curb_policy_id.toLowerCase(), parsed.data as unknown as CdsPolicy);
  });

  const refused: RefusedRow[] = [];
  const valid: ValidZone[] = [];
  const firstRow = new Map<string, number>();
  const seenIds = new Set<string>();
  feed.zones.forEach((raw, i) => {
    const row = i + 1;
    const label = (raw as { user_zone_id?: unknown } | null)?.user_zone_id;
    const refuse = (reason: string) =>
      refused.push({ row, ...(typeof label === 'string' ? { zoneNumber: label.trim().toUpperCase() } : {}), reason });
    const parsed = Zone.safeParse(raw);
    if (!parsed.success) return refuse(reasons(parsed.error.issues));
    const zn = parsed.data;
    if (zn.end_date !== undefined && zn.end_date <= now)
      return refuse('end_date has passed: a retired Curb Zone is not imported');
    const curb = ZoneCurb.safeParse(zn.geometry);
    if (!curb.success || (zn.geometry as { type?: string }).type !== 'Polygon')
      return refuse(
        `geometry: ${curb.success ? 'a Curb Zone geometry is a GeoJSON Polygon' : reasons(curb.error.issues)}`,
      );
    const address = zn.street_name ?? zn.name;
    if (!address) return refuse('street_name or name is required (it becomes the zone address)');
    const zoneUuid = zn.curb_zone_id.toLowerCase();
    if (seenIds.has(zoneUuid)) return refuse(`curb_zone_id ${zoneUuid} is already on another row`);
    const seen = firstRow.get(zn.user_zone_id);
    if (seen !== undefined) return refuse(`user_zone_id ${zn.user_zone_id} is already on row ${seen}`);
    const ids = zn.curb_policy_ids.map((id) => id.toLowerCase());
    const missing = ids.find((id) => !policies.has(id));
    if (missing) return refuse(badPolicies.get(missing) ?? `curb_policy_ids: policy ${missing} is not in the feed`);
    let converted: { body: PolicyBody; ids: Record<string, string> };
    try {
      converted = cdsToBody(
        ids.map((id) => policies.get(id)!),
        operator.timezone,
      );
    } catch (err) {
      if (err instanceof CdsPolicyRefused) return refuse(err.message);
      throw err;
    }
    seenIds.add(zoneUuid);
    firstRow.set(zn.user_zone_id, row);
    const geometry = zn.geometry as CdsPolygon;
    valid.push({
      row,
      policyKey: [...ids].sort().join(','),
      body: converted.body,
      ids: converted.ids,
      zone: {
        zoneNumber: zn.user_zone_id,
        name: zn.name ?? address,
        address,
        city: operator.city,
        state: operator.state,
        zip: '',
        ...polygonCentre(geometry),
        kind: 'street',
        capacity: zn.num_spaces ?? 0,
        curb: geometry,
        cdsId: zoneUuid,
        ...presetColumns(converted.body),
      },
    });
  });

  // Taken here already: the zone numbers, and the curb_zone_ids (stored, or derived from a zone's id).
  const taken = await existingNumbers(
    db,
    operator.id,
    valid.map((v) => v.zone.zoneNumber),
  );
  const wanted = valid.map((v) => v.zone.cdsId!);
  const stored = new Set<string>();
  for (let i = 0; i < wanted.length; i += 5000) {
    const rows = await db
      .select({ id: sql<string>`${zones.cdsId}::text` })
      .from(zones)
      .where(inArray(zones.cdsId, wanted.slice(i, i + 5000)));
    for (const r of rows) stored.add(r.id);
  }
  const derived = new Set(
    (
      await db
        .select({ id: zones.id })
        .from(zones)
        .where(sql`${zones.cdsId} is null`)
    ).map((z) => zoneCdsId(z.id)),
  );
  const fresh = valid.filter((v) => {
    const reason = taken.has(v.zone.zoneNumber)
      ? `zone_number ${v.zone.zoneNumber} already exists for this operator`
      : stored.has(v.zone.cdsId!) || derived.has(v.zone.cdsId!)
        ? `curb_zone_id ${v.zone.cdsId} is already a zone on this server`
        : null;
    if (reason) refused.push({ row: v.row, zoneNumber: v.zone.zoneNumber, reason });
    return reason === null;
  });
  refused.sort((a, b) => a.row - b.row);
  const groups = new Map<string, ValidZone[]>();
  for (const v of fresh) groups.set(v.policyKey, [...(groups.get(v.policyKey) ?? []), v]);
  const report: CdsImportReport = { rows: feed.zones.length, valid: fresh.length, imported: 0, policies: 0, refused };
  if (opts.dryRun || fresh.length === 0 || (refused.length > 0 && !opts.skipInvalid)) return report;

  try {
    await writeFeed(db, operator, groups, fresh, { ...report, refused }, opts);
  } catch (err) {
    if (isUniqueViolation(err)) throw new ZoneNumbersTaken();
    throw err;
  }
  return { ...report, imported: fresh.length, policies: groups.size };
}

/** The valid zones and their price policies, and the audit entry, in one transaction. */
async function writeFeed(
  db: Db,
  operator: OperatorRecord,
  groups: Map<string, ValidZone[]>,
  fresh: ValidZone[],
  report: CdsImportReport,
  opts: { actor: Actor; source?: string },
): Promise<void> {
  const refused = report.refused;
  await db.transaction(async (tx) => {
    const names = new Set(
      (
        await tx
          .select({ name: pricePolicies.name })
          .from(pricePolicies)
          .where(eq(pricePolicies.operatorId, operator.id))
      ).map((p) => p.name),
    );
    for (const [key, members] of groups) {
      let name = `CDS ${createHash('sha256').update(key).digest('hex').slice(0, 8)}`;
      for (let n = 2; names.has(name); n++) name = `${name.replace(/ \(\d+\)$/, '')} (${n})`;
      names.add(name);
      const [policy] = await tx
        .insert(pricePolicies)
        .values({ operatorId: operator.id, name })
        .returning({ id: pricePolicies.id });
      await tx.insert(pricePolicyVersions).values({
        policyId: policy!.id,
        version: 1,
        effectiveFrom: new Date(0),
        body: members[0]!.body,
        cdsIds: members[0]!.ids,
      });
      for (const m of members) m.zone.pricePolicyId = policy!.id;
    }
    for (let i = 0; i < fresh.length; i += BATCH)
      await insertZones(
        tx,
        operator.id,
        fresh.slice(i, i + BATCH).map((v) => v.zone),
      );
    await audit(tx, {
      operatorId: operator.id,
      actor: opts.actor,
      action: 'zone.import',
      entity: 'zone',
      entityId: 'import',
      before: null,
      after: {
        FileName: opts.source ?? '',
        Format: 'cds',
        Rows: report.rows,
        Imported: fresh.length,
        Refused: refused.length,
        Policies: groups.size,
        ZoneNumbers: fresh.map((v) => v.zone.zoneNumber),
      },
    });
  });
}

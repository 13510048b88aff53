import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { LruMap } from 'toad-cache';
import type { Executor } from '../db/client.ts';
import { normalisePlate } from '../lib/plate.ts';
import { permitsOfPlateQuery, policyOfVersion, type SessionPolicy } from '../pricing/index.ts';
import type { OperatorCache, ZoneCache, ZoneRecord } from '../zones/index.ts';
import type { Started } from './start-statement.ts';

declare module 'fastify' {
  interface FastifyInstance {
    sessionTerms: SessionTerms;
  }
}

/** What prices a running session's extension and refund, as the process last saw it (Start's and Extend's statements). */
export interface HeldTerms {
  id: number;
  zoneId: number;
  vehicleId: number | null;
  plate: string;
  startedAt: Date;
  endsAt: Date;
  durationMinutes: number;
  parkingCents: number;
  refundedCents: number;
  discountPercent: number;
  rateCents: number;
  policyVersionId: number | null;
}

/**
 * Running sessions' pricing terms as this process last wrote them (Start's and Extend's one
 * statements answer them), so that a Quote for more minutes and a Stop can price before their one
 * statement, which checks every one of them is still so (termsMatchSql; quote-extend-statement.ts,
 * stop-statement.ts). A session changed elsewhere (another process, a job, Amend) is only a miss:
 * the route then takes its step-by-step path.
 */
export class SessionTerms {
  private readonly held = new LruMap<HeldTerms>(100_000);

  constructor(
    readonly zones: ZoneCache,
    readonly operators: OperatorCache,
  ) {}

  /** A session as Start's or Extend's statement answered it (with its terms). */
  saw(started: Started): void {
    const row = started.row;
    if (row.rate_cents === undefined || row.discount_percent === undefined) return;
    const s = started.view.session;
    this.held.set(s.id, {
      id: s.id,
      zoneId: s.zoneId,
      vehicleId: s.vehicleId,
      plate: s.plate,
      startedAt: s.startedAt,
      endsAt: s.endsAt,
      durationMinutes: s.durationMinutes,
      parkingCents: s.parkingCents,
      refundedCents: s.refundedCents,
      discountPercent: Number(row.discount_percent),
      rateCents: Number(row.rate_cents),
      policyVersionId: row.policy_version_id === null ? null : Number(row.policy_version_id),
    });
  }

  get(id: number): HeldTerms | undefined {
    return this.held.get(id);
  }

  forget(id: number): void {
    this.held.delete(id);
  }
}

/** A held session with what prices it: its zone's row as held (and its version), the operator's time zone, its policy. */
export interface HeldSession {
  terms: HeldTerms;
  zone: ZoneRecord;
  zoneVersion: string;
  timezone: string;
  policy: SessionPolicy;
}

/**
 * A session this process holds the terms of, still running at `now` by them, with its zone (held
 * or read once), operator and policy (compiled once per process); null when any is missing.
 */
export async function heldSession(
  db: Executor,
  held: SessionTerms,
  sessionId: number,
  now: Date,
): Promise<HeldSession | null> {
  const terms = held.get(sessionId);
  if (!terms || terms.endsAt.getTime() <= now.getTime()) return null;
  const found = await held.zones.held(db, terms.zoneId);
  if (!found) return null;
  const operator = await held.operators.byOperatorId(db, found.zone.operatorId);
  if (!operator) return null;
  // A zone's preset prices a session at the rate it started with (pricing's policyOfSession).
  const policy = await policyOfVersion(db, { ...found.zone, rateCents: terms.rateCents }, terms.policyVersionId);
  return { terms, zone: found.zone, zoneVersion: found.version, timezone: operator.timezone, policy };
}

/** The values termsMatchSql checks: the member, the session's terms as held, its zone's row version and operator, now. */
export interface TermsValues extends Record<string, unknown> {
  member: number;
  session: number;
  zone: number;
  /** The session's plate, and as the permit read compares it (normalised). */
  plate: string;
  permitPlate: string;
  startedAt: string;
  endsAt: string;
  minutes: number;
  parking: number;
  refunded: number;
  discount: number;
  rate: number;
  versionId: number | null;
  operator: number;
  zoneVersion: string;
  at: string;
}

export function termsValues(memberId: number, h: HeldSession, now: Date): TermsValues {
  const t = h.terms;
  return {
    member: memberId,
    session: t.id,
    zone: t.zoneId,
    plate: t.plate,
    permitPlate: normalisePlate(t.plate),
    startedAt: t.startedAt.toISOString(),
    endsAt: t.endsAt.toISOString(),
    minutes: t.durationMinutes,
    parking: t.parkingCents,
    refunded: t.refundedCents,
    discount: t.discountPercent,
    rate: t.rateCents,
    versionId: t.policyVersionId,
    operator: h.zone.operatorId,
    zoneVersion: h.zoneVersion,
    at: now.toISOString(),
  };
}

/**
 * The conditions under which a held session's terms still hold, over `s` (its parking_sessions
 * row, read as the member's) and `z` (its zone, with `version`: xmin as text): running at now,
 * paid from the wallet with no saved card, every pricing term unchanged, the zone's row unchanged,
 * and no permit for its plate when it started (a permit prices by its own rules).
 */
export function termsMatchSql(db: Executor, p: (name: keyof TermsValues & string) => Placeholder): SQL {
  const startedAt = sql`${p('startedAt')}::timestamptz`;
  const permits = permitsOfPlateQuery(db, {
    operatorId: sql`${p('operator')}::int`,
    zoneId: sql`${p('zone')}::int`,
    plate: sql`${p('permitPlate')}::text`,
    at: startedAt,
  });
  return sql`s.status = 'active' and s.ends_at > ${p('at')}::timestamptz and s.paid_via = 'Wallet' and s.card_ref is null
            and s.zone_id = ${p('zone')}::int and s.plate = ${p('plate')}::text and s.started_at = ${startedAt}
            and s.ends_at = ${p('endsAt')}::timestamptz and s.duration_minutes = ${p('minutes')}::int
            and s.parking_cents = ${p('parking')}::int and s.refunded_cents = ${p('refunded')}::int
            and s.discount_percent = ${p('discount')}::int and s.rate_cents = ${p('rate')}::int
            and s.policy_version_id is not distinct from ${p('versionId')}::int
            and z.version = ${p('zoneVersion')}::text
            and not exists (${permits})`;
}

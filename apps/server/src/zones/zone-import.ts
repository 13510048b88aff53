/**
 * Importing an operator's zones: every row is checked, the refused ones are reported
 * with their row number and reason, and the import is all or nothing (one transaction) unless the
 * caller asks to skip the invalid rows. Row fields: zone_number, address, lat, lng, rate (dollars)
 * or rate_cents and max_stay_minutes are required; name (defaults to the address), city and state
 * (the operator's), zip (''), kind ('street'), paid_days ('1-7'; also 'Mon-Fri', '1,3,5', 'none'),
 * paid_from/paid_until ('00:00'/'24:00': always paid) and capacity (0 = unknown) are optional.
 */
import { z } from 'zod';
import { amountToCents, text } from '@parkit/contract';
import type { Db } from '../db/client.ts';
import { audit, type Actor } from '../infra/audit-log.ts';
import type { OperatorRecord } from './operator-repository.ts';
import { toStoredHours } from './paid-hours.ts';
import { parseZoneFile, type RawZoneRow, type ZoneFileFormat } from './zone-file.ts';
import { existingNumbers, insertZones, type NewZone } from './zone-repository.ts';
import { isUniqueViolation } from '../db/errors.ts';

export interface RefusedRow {
  row: number;
  zoneNumber?: string;
  reason: string;
}

export interface ImportReport {
  format: ZoneFileFormat;
  rows: number;
  /** Rows that pass every check, the numbers the operator has already included. */
  valid: number;
  imported: number;
  refused: RefusedRow[];
  ignoredColumns: string[];
}

const BATCH = 500;
const DAY_NAMES: Record<string, number> = { mon: 1, tue: 2, wed: 3, thu: 4, fri: 5, sat: 6, sun: 7 };

/** '' and null are "not given", so defaults apply and required fields say they are required. */
const blank = (v: unknown) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v);
const optionalText = (max: number) => z.preprocess(blank, text(max, 'is required').optional());
/** A number from a CSV string or a JSON number, with field-named messages; undefined when blank and optional. */
function numberField(
  name: string,
  min: number,
  max: number,
  opts: { whole?: boolean; optional: true },
): z.ZodType<number | undefined>;
function numberField(
  name: string,
  min: number,
  max: number,
  opts?: { whole?: boolean; optional?: false },
): z.ZodType<number>;
function numberField(
  name: string,
  min: number,
  max: number,
  { whole = true, optional = false }: { whole?: boolean; optional?: boolean } = {},
): z.ZodType<number | undefined> {
  return z.unknown().transform((value, ctx) => {
    const v = blank(value);
    if (v === undefined) {
      if (!optional) ctx.addIssue({ code: 'custom', message: `${name} is required` });
      return undefined;
    }
    const n = typeof v === 'number' ? v : typeof v === 'string' ? Number(v.trim()) : NaN;
    let problem: string | null = null;
    if (!Number.isFinite(n)) problem = `${name} must be a number`;
    else if (whole && !Number.isInteger(n)) problem = `${name} must be a whole number`;
    else if (n < min || n > max) problem = `${name} must be between ${min} and ${max}`;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
    return n;
  });
}

/** 'Mon-Fri', '1-5', '1,2,3', 'Sat Sun', [6, 7], 'daily', 'none' to ISO weekdays; null when unreadable. */
export function parsePaidDays(value: unknown): number[] | null {
  if (Array.isArray(value)) {
    return value.every((d) => Number.isInteger(d) && d >= 1 && d <= 7) ? [...new Set(value as number[])].sort() : null;
  }
  if (typeof value !== 'string') return null;
  const s = value.trim().toLowerCase();
  if (s === 'daily' || s === 'all') return [1, 2, 3, 4, 5, 6, 7];
  if (s === 'none') return [];
  const day = (t: string) => (/^[1-7]$/.test(t) ? Number(t) : (DAY_NAMES[t.slice(0, 3)] ?? null));
  const days = new Set<number>();
  for (const part of s.split(/[\s,;]+/).filter(Boolean)) {
    const [a, b, extra] = part.split('-');
    const from = day(a ?? '');
    const to = b === undefined ? from : day(b);
    if (from === null || to === null || extra !== undefined || to < from) return null;
    for (let d = from; d <= to; d++) days.add(d);
  }
  return days.size > 0 ? [...days].sort() : null;
}

const RowSchema = z
  .object({
    zone_number: z.preprocess(
      (v) => (typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim().toUpperCase() : v),
      z
        .string({ error: 'zone_number is required' })
        .regex(/^[A-Z0-9][A-Z0-9-]{0,19}$/, 'zone_number must be 1 to 20 letters, digits or dashes'),
    ),
    name: optionalText(120),
    address: z.preprocess(blank, text(200, 'address is required')),
    city: optionalText(80),
    state: z.preprocess(
      (v) => (typeof v === 'string' ? v.trim().toUpperCase() : v),
      z.preprocess(
        blank,
        z
          .string()
          .regex(/^[A-Z]{2}$/, 'state must be a 2-letter code')
          .optional(),
      ),
    ),
    zip: z.preprocess(
      blank,
      z.coerce
        .string()
        .trim()
        .regex(/^\d{5}(-\d{4})?$/, 'zip must be 5 digits (or ZIP+4)')
        .optional(),
    ),
    lat: numberField('lat', -90, 90, { whole: false }),
    lng: numberField('lng', -180, 180, { whole: false }),
    kind: z.preprocess(
      (v) => (typeof v === 'string' ? blank(v.trim().toLowerCase()) : v),
      z.enum(['street', 'lot', 'garage'], { error: 'kind must be street, lot or garage' }).default('street'),
    ),
    rate_cents: numberField('rate_cents', 0, 100_000, { optional: true }).optional(),
    rate: z.preprocess(blank, z.union([z.number(), z.string()]).optional()),
    max_stay_minutes: numberField('max_stay_minutes', 1, 10_080),
    paid_days: z.preprocess(blank, z.unknown().optional()),
    paid_from: z.preprocess(blank, z.coerce.string().trim().default('00:00')),
    paid_until: z.preprocess(blank, z.coerce.string().trim().default('24:00')),
    capacity: numberField('capacity', 0, 100_000, { optional: true }).optional(),
  })
  .transform((r, ctx) => {
    const fromRate = r.rate === undefined ? undefined : amountToCents(r.rate);
    if (fromRate === null || (fromRate !== undefined && (fromRate < 0 || fromRate > 100_000))) {
      ctx.addIssue({ code: 'custom', message: 'rate must be dollars with at most 2 decimals, 0 to 1000' });
    } else if (r.rate_cents !== undefined && fromRate !== undefined && r.rate_cents !== fromRate) {
      ctx.addIssue({ code: 'custom', message: 'rate and rate_cents disagree' });
    } else if (r.rate_cents === undefined && fromRate === undefined) {
      ctx.addIssue({ code: 'custom', message: 'rate or rate_cents is required' });
    }
    const paidDays = r.paid_days === undefined ? [1, 2, 3, 4, 5, 6, 7] : parsePaidDays(r.paid_days);
    if (paidDays === null)
      ctx.addIssue({ code: 'custom', message: 'paid_days must be weekdays such as "Mon-Fri", "1-5" or "1,3,5"' });
    const hours = toStoredHours(r.paid_from, r.paid_until);
    if (!hours)
      ctx.addIssue({
        code: 'custom',
        message: 'paid_from and paid_until must be different HH:MM times (00:00 to 24:00)',
      });
    return { ...r, rateCents: r.rate_cents ?? fromRate ?? 0, paidDays: paidDays ?? [], hours };
  });

/** 'name: At most 120 characters'; messages that already name their field stay as they are. */
function reasons(issues: readonly z.core.$ZodIssue[]): string {
  const lines = issues.map((i) => {
    const field = i.path.join('.');
    return field && !i.message.startsWith(field) ? `${field}: ${i.message}` : i.message;
  });
  return [...new Set(lines)].join('; ');
}

/** Checks every row; a zone number repeated in the file is refused from its second row on. */
export function validateZoneRows(rows: readonly RawZoneRow[], operator: Pick<OperatorRecord, 'city' | 'state'>) {
  const valid: { row: number; zone: NewZone }[] = [];
  const refused: RefusedRow[] = [];
  const firstRow = new Map<string, number>();
  for (const raw of rows) {
    const given = raw.fields.zone_number;
    const label =
      typeof given === 'string' || typeof given === 'number' ? String(given).trim().toUpperCase() : undefined;
    const refuse = (reason: string) => refused.push({ row: raw.row, ...(label ? { zoneNumber: label } : {}), reason });
    if (raw.problem) {
      refuse(raw.problem);
      continue;
    }
    const parsed = RowSchema.safeParse(raw.fields);
    if (!parsed.success) {
      refuse(reasons(parsed.error.issues));
      continue;
    }
    const r = parsed.data;
    const seen = firstRow.get(r.zone_number);
    if (seen !== undefined) {
      refuse(`zone_number ${r.zone_number} is already on row ${seen}`);
      continue;
    }
    firstRow.set(r.zone_number, raw.row);
    valid.push({
      row: raw.row,
      zone: {
        zoneNumber: r.zone_number,
        name: r.name ?? r.address,
        address: r.address,
        city: r.city ?? operator.city,
        state: r.state ?? operator.state,
        zip: r.zip ?? '',
        lat: r.lat,
        lng: r.lng,
        kind: r.kind,
        rateCents: r.rateCents,
        maxStayMinutes: r.max_stay_minutes,
        paidDays: r.paidDays,
        paidFromMinute: r.hours!.paidFromMinute,
        paidUntilMinute: r.hours!.paidUntilMinute,
        capacity: r.capacity ?? 0,
      },
    });
  }
  return { valid, refused };
}

/** A zone number of the file was taken between the check and the write (another import, a create). */
export class ZoneNumbersTaken extends Error {
  override name = 'ZoneNumbersTaken';
}

/**
 * Reads, checks and writes a zone file for an operator: the one implementation behind
 * `npm run zones:import` and the console's Import. Nothing is written when a row is refused,
 * unless skipInvalid; then the valid rows go in; nothing at all with dryRun. The writes and their
 * audit entry (`zone.import`, the numbers written) are one transaction. A number taken between the
 * check and the write (the table's constraint) rolls it all back: ZoneNumbersTaken. Throws
 * ZoneFileError when the file is not a zone file at all.
 */
export async function importZoneFile(
  db: Db,
  operator: OperatorRecord,
  content: string,
  opts: { fileName?: string; skipInvalid?: boolean; dryRun?: boolean; actor: Actor },
): Promise<ImportReport> {
  const file = parseZoneFile(content, opts.fileName);
  const { valid, refused } = validateZoneRows(file.rows, operator);
  const taken = await existingNumbers(
    db,
    operator.id,
    valid.map((v) => v.zone.zoneNumber),
  );
  const fresh = valid.filter((v) => {
    if (!taken.has(v.zone.zoneNumber)) return true;
    refused.push({
      row: v.row,
      zoneNumber: v.zone.zoneNumber,
      reason: `zone_number ${v.zone.zoneNumber} already exists for this operator`,
    });
    return false;
  });
  refused.sort((a, b) => a.row - b.row);
  const report = {
    format: file.format,
    rows: file.rows.length,
    valid: fresh.length,
    imported: 0,
    refused,
    ignoredColumns: file.ignoredColumns,
  };
  if (opts.dryRun || fresh.length === 0 || (refused.length > 0 && !opts.skipInvalid)) return report;
  try {
    await db.transaction(async (tx) => {
      for (let i = 0; i < fresh.length; i += BATCH) {
        await insertZones(
          tx,
          operator.id,
          fresh.slice(i, i + BATCH).map((v) => v.zone),
        );
      }
      await audit(tx, {
        operatorId: operator.id,
        actor: opts.actor,
        action: 'zone.import',
        entity: 'zone',
        entityId: 'import',
        before: null,
        after: {
          FileName: opts.fileName ?? '',
          Format: file.format,
          Rows: file.rows.length,
          Imported: fresh.length,
          Refused: refused.length,
          ZoneNumbers: fresh.map((v) => v.zone.zoneNumber),
        },
      });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new ZoneNumbersTaken();
    throw err;
  }
  return { ...report, imported: fresh.length };
}

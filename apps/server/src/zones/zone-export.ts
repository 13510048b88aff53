/**
 * An operator's zones as a zone file (the console's Export): the columns the import reads
 * (zone-file.ts ZONE_COLUMNS, rate in dollars), so an exported file imports again as it is. CSV
 * (RFC 4180, formulas defused) or a GeoJSON FeatureCollection of Points. Curbs are not in it: the
 * import reads none.
 */
import { and, asc, eq, isNotNull, isNull } from 'drizzle-orm';
import { centsToAmount } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { zones } from '../db/schema/index.ts';
import { csvField } from '../lib/csv.ts';
import { storedHoursToClock } from './paid-hours.ts';
import type { ZoneFileFormat } from './zone-file.ts';

const EXPORT_COLUMNS = [
  'zone_number',
  'name',
  'address',
  'city',
  'state',
  'zip',
  'lat',
  'lng',
  'kind',
  'rate',
  'max_stay_minutes',
  'paid_days',
  'paid_from',
  'paid_until',
  'capacity',
] as const;
type ExportRow = Record<(typeof EXPORT_COLUMNS)[number], string | number>;

/** The operator's zones by number, as the import's columns. */
async function exportRows(
  db: Executor,
  operatorId: number,
  retired: 'include' | 'exclude' | 'only',
): Promise<ExportRow[]> {
  const rows = await db
    .select()
    .from(zones)
    .where(
      and(
        eq(zones.operatorId, operatorId),
        retired === 'exclude' ? isNull(zones.retiredAt) : retired === 'only' ? isNotNull(zones.retiredAt) : undefined,
      ),
    )
    .orderBy(asc(zones.zoneNumber));
  return rows.map((z) => {
    const hours = storedHoursToClock(z);
    const days = [...z.paidDays].sort((a, b) => a - b);
    return {
      zone_number: z.zoneNumber,
      name: z.name,
      address: z.address,
      city: z.city,
      state: z.state,
      zip: z.zip,
      lat: z.lat,
      lng: z.lng,
      kind: z.kind,
      rate: centsToAmount(z.rateCents).toFixed(2),
      max_stay_minutes: z.maxStayMinutes,
      paid_days: days.length === 0 ? 'none' : days.join(','),
      paid_from: hours.from,
      paid_until: hours.until,
      capacity: z.capacity,
    };
  });
}

/** The zone file's text in the format asked for. */
export async function exportZoneFile(
  db: Executor,
  operatorId: number,
  opts: { format: ZoneFileFormat; retired: 'include' | 'exclude' | 'only' },
): Promise<string> {
  const rows = await exportRows(db, operatorId, opts.retired);
  if (opts.format === 'csv') {
    const lines = [EXPORT_COLUMNS.join(','), ...rows.map((r) => EXPORT_COLUMNS.map((c) => csvField(r[c])).join(','))];
    return lines.map((l) => `${l}\r\n`).join('');
  }
  return JSON.stringify({
    type: 'FeatureCollection',
    features: rows.map(({ lat, lng, ...properties }) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [lng, lat] },
      properties,
    })),
  });
}

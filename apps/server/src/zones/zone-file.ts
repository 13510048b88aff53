/**
 * Reading an operator's zone file (`npm run zones:import FILE`): a GeoJSON
 * FeatureCollection of Points, or CSV with a header row. Turns either into numbered rows of raw
 * fields; validating them is zone-import.ts's job. A file that cannot be read as either throws
 * ZoneFileError (nothing in it is imported).
 */

import { parse, type CsvError } from 'csv-parse/sync';

export class ZoneFileError extends Error {
  override name = 'ZoneFileError';
}

export type ZoneFileFormat = 'geojson' | 'csv';

export interface RawZoneRow {
  /** CSV: the line the record starts on (the header is line 1). GeoJSON: the feature's position, from 1. */
  row: number;
  fields: Record<string, unknown>;
  /** Why the row cannot be read at all (wrong column count, not a Point…); fields are then unusable. */
  problem?: string;
}

export interface ParsedZoneFile {
  format: ZoneFileFormat;
  rows: RawZoneRow[];
  /** Columns or properties the importer does not know: ignored, but worth telling (a typo?). */
  ignoredColumns: string[];
}

export const ZONE_COLUMNS = [
  'zone_number',
  'name',
  'address',
  'city',
  'state',
  'zip',
  'lat',
  'lng',
  'kind',
  'rate_cents',
  'rate',
  'max_stay_minutes',
  'paid_days',
  'paid_from',
  'paid_until',
  'capacity',
] as const;
const KNOWN = new Set<string>(ZONE_COLUMNS);
const ALIASES: Record<string, string> = {
  latitude: 'lat',
  longitude: 'lng',
  lon: 'lng',
  long: 'lng',
  zone: 'zone_number',
  zone_no: 'zone_number',
};

/** 'Zone Number', 'zone-number' and 'ZONE_NUMBER' are all zone_number. */
function columnName(header: string): string {
  const n = header
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return ALIASES[n] ?? n;
}

export function parseZoneFile(text: string, fileName = ''): ParsedZoneFile {
  const body = text.replace(/^\uFEFF/, '');
  const ext = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  const isJson = ext === 'json' || ext === 'geojson' || (ext !== 'csv' && /^\s*[{[]/.test(body));
  return isJson ? parseGeoJson(body) : parseCsv(body);
}

function parseGeoJson(text: string): ParsedZoneFile {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (err) {
    throw new ZoneFileError(`not valid JSON: ${(err as Error).message}`);
  }
  const features = (doc as { type?: unknown; features?: unknown } | null)?.features;
  if ((doc as { type?: unknown } | null)?.type !== 'FeatureCollection' || !Array.isArray(features)) {
    throw new ZoneFileError('a GeoJSON file must be a FeatureCollection with a features array');
  }
  const ignored = new Set<string>();
  const rows = features.map((f: unknown, i): RawZoneRow => {
    const feature = (f ?? {}) as {
      type?: unknown;
      geometry?: { type?: unknown; coordinates?: unknown } | null;
      properties?: unknown;
    };
    const props =
      feature.properties && typeof feature.properties === 'object'
        ? (feature.properties as Record<string, unknown>)
        : {};
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(props)) {
      const name = columnName(k);
      if (name === 'lat' || name === 'lng') continue; // the geometry is the position
      if (KNOWN.has(name)) fields[name] = v;
      else ignored.add(k);
    }
    const coords = feature.geometry?.coordinates;
    if (
      feature.type !== 'Feature' ||
      feature.geometry?.type !== 'Point' ||
      !Array.isArray(coords) ||
      coords.length < 2
    ) {
      return { row: i + 1, fields, problem: 'geometry must be a Point with [longitude, latitude]' };
    }
    fields.lng = coords[0];
    fields.lat = coords[1];
    return { row: i + 1, fields };
  });
  return { format: 'geojson', rows, ignoredColumns: [...ignored] };
}

function parseCsv(text: string): ParsedZoneFile {
  const records = csvRecords(text).filter((r) => !(r.cells.length === 1 && r.cells[0]!.trim() === ''));
  const [header, ...data] = records;
  if (!header) throw new ZoneFileError('the CSV file is empty: it needs a header row and one row per zone');
  const names = header.cells.map(columnName);
  const missing = ['zone_number', 'address', 'lat', 'lng'].filter((c) => !names.includes(c));
  if (missing.length > 0) throw new ZoneFileError(`the CSV header lacks column(s): ${missing.join(', ')}`);
  const ignoredColumns = header.cells.filter((_, i) => !KNOWN.has(names[i]!));
  const rows = data.map((r): RawZoneRow => {
    const fields: Record<string, unknown> = {};
    names.forEach((n, i) => {
      if (KNOWN.has(n)) fields[n] = r.cells[i];
    });
    const problem =
      r.cells.length !== names.length ? `has ${r.cells.length} fields, the header has ${names.length}` : r.problem;
    return problem ? { row: r.line, fields, problem } : { row: r.line, fields };
  });
  return { format: 'csv', rows, ignoredColumns };
}

interface CsvRecord {
  line: number;
  cells: string[];
  problem?: string;
}

/** csv-parse's refusals, worded for the import report (one line per refused row). */
function problemOf(err: CsvError): string {
  if (err.code === 'CSV_QUOTE_NOT_CLOSED') return 'has a quoted field that never ends';
  if (err.code === 'INVALID_OPENING_QUOTE' || err.code === 'CSV_INVALID_CLOSING_QUOTE')
    return 'has a quote inside an unquoted field';
  return err.message;
}

/**
 * RFC 4180 records by csv-parse: quoted fields with "" for a quote, CRLF or LF, newlines inside
 * quotes. Each record keeps the line it starts on; a malformed one is kept with its problem, so
 * the report names the row instead of refusing the whole file.
 */
export function csvRecords(text: string): CsvRecord[] {
  const out: CsvRecord[] = [];
  let nextLine = 1;
  parse(text, {
    relax_column_count: true,
    // Files edited on several systems mix line ends; csv-parse would guess one from line 1.
    record_delimiter: ['\r\n', '\n', '\r'],
    skip_records_with_error: true,
    on_record: (cells: string[], { lines }) => {
      out.push({ line: nextLine, cells });
      nextLine = lines + 1;
      return null; // kept in `out`, in order with the refused ones
    },
    on_skip: (err) => {
      if (!err) return;
      out.push({ line: nextLine, cells: [], problem: problemOf(err) });
      nextLine = Number(err.lines) + 1;
    },
  });
  return out;
}

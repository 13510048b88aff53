/**
 * Reading an operator's zone file (issue 4: `npm run zones:import FILE`): a GeoJSON
 * FeatureCollection of Points, or CSV with a header row. Turns either into numbered rows of raw
 * fields; validating them is zone-import.ts's job. A file that cannot be read as either throws
 * ZoneFileError (nothing in it is imported).
 */

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
  'zone_number', 'name', 'address', 'city', 'state', 'zip', 'lat', 'lng', 'kind', 'rate_cents', 'rate',
  'max_stay_minutes', 'paid_days', 'paid_from', 'paid_until', 'capacity',
] as const;
const KNOWN = new Set<string>(ZONE_COLUMNS);
const ALIASES: Record<string, string> = { latitude: 'lat', longitude: 'lng', lon: 'lng', long: 'lng', zone: 'zone_number', zone_no: 'zone_number' };

/** 'Zone Number', 'zone-number' and 'ZONE_NUMBER' are all zone_number. */
function columnName(header: string): string {
  const n = header.trim().toLowerCase().replace(/[\s-]+/g, '_');
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
    const feature = (f ?? {}) as { type?: unknown; geometry?: { type?: unknown; coordinates?: unknown } | null; properties?: unknown };
    const props = feature.properties && typeof feature.properties === 'object' ? (feature.properties as Record<string, unknown>) : {};
    const fields: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(props)) {
      const name = columnName(k);
      if (name === 'lat' || name === 'lng') continue; // the geometry is the position
      if (KNOWN.has(name)) fields[name] = v;
      else ignored.add(k);
    }
    const coords = feature.geometry?.coordinates;
    if (feature.type !== 'Feature' || feature.geometry?.type !== 'Point' || !Array.isArray(coords) || coords.length < 2) {
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
    const problem = r.cells.length !== names.length ? `has ${r.cells.length} fields, the header has ${names.length}` : r.problem;
    return problem ? { row: r.line, fields, problem } : { row: r.line, fields };
  });
  return { format: 'csv', rows, ignoredColumns };
}

interface CsvRecord {
  line: number;
  cells: string[];
  problem?: string;
}

/** RFC 4180: comma-separated, "quoted" fields with "" for a quote, CRLF or LF, newlines inside quotes. */
export function csvRecords(text: string): CsvRecord[] {
  const out: CsvRecord[] = [];
  let line = 1;
  let start = 1;
  let cells: string[] = [];
  let cell = '';
  let quoted = false;
  let problem: string | undefined;
  const endRecord = () => {
    cells.push(cell);
    out.push(problem ? { line: start, cells, problem } : { line: start, cells });
    cells = [];
    cell = '';
    problem = undefined;
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line++;
        cell += c;
      }
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      endRecord();
      line++;
      start = line;
    } else {
      if (c === '"') problem = 'has a quote inside an unquoted field';
      cell += c;
    }
  }
  if (quoted) problem = 'has a quoted field that never ends';
  if (cell !== '' || cells.length > 0 || quoted) endRecord();
  return out;
}

// npm run zones:import FILE [--operator ID] [--skip-invalid]: loads an operator's zones from a
// GeoJSON or CSV file into the database the server uses (DATABASE_URL, else PGlite in DATA_DIR).
// With --cds URL_OR_FILE: a Curb Data Specification Curbs feed (zones and policies) instead.
// Exit code 1 when nothing was imported because of errors, so a script or CI notices.
import { readFileSync } from 'node:fs';
import { basename, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  defaultOperatorId,
  ZONE_COLUMNS,
  ZoneFileError,
  ZoneNumbersTaken,
  importZoneFile,
  type ImportReport,
} from '../src/zones/index.ts';
import { adoptPresetPolicies } from '../src/pricing/index.ts';
import { COMMAND_LINE } from '../src/operators/index.ts';
import { CdsFeedError, feedOf, importCdsFeed, type CdsImportReport } from '../src/opendata/index.ts';
import { cliArgs, runCli, withOperator } from './cli.ts';

const USAGE = `Usage: npm run zones:import -- FILE [--operator ID] [--skip-invalid]
       npm run zones:import -- --cds URL_OR_FILE [--operator ID] [--skip-invalid]

FILE           a GeoJSON FeatureCollection of Points, or CSV with a header row
--cds SOURCE   a CDS Curbs feed: a URL (…/curbs, …/curbs/zones: its policies are read too, every
               page) or a JSON file holding the zones and policies answers (docs/open-data.md)
--operator ID  the operator (client_id) the zones belong to; default: the first operator
--skip-invalid import the valid rows even when some are refused (default: all or nothing)

Columns / properties: ${ZONE_COLUMNS.join(', ')} (CSV also lat, lng).
Required: zone_number, address, lat, lng (GeoJSON: the Point), rate (dollars) or rate_cents,
max_stay_minutes. With the embedded database (no DATABASE_URL), stop the server first: PGlite
allows one process per data folder.`;

interface Args {
  file: string;
  cds: boolean;
  operatorId?: number;
  skipInvalid: boolean;
}

/** The command line, read by node's util.parseArgs; a string is what is wrong with it. */
function readArgs(argv: string[]): Args | 'help' | string {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        operator: { type: 'string' },
        cds: { type: 'string' },
        'skip-invalid': { type: 'boolean' },
      },
    });
  } catch (err) {
    return (err as Error).message;
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  const cds = values.cds !== undefined;
  if (cds && positionals.length > 0) return `--cds reads one feed; drop ${positionals.join(', ')}`;
  const [file = values.cds, ...more] = positionals;
  if (!file) return 'no FILE given';
  if (more.length > 0) return `one file at a time (got ${file} and ${more.join(', ')})`;
  const skipInvalid = values['skip-invalid'] === true;
  if (values.operator === undefined) return { file, cds, skipInvalid };
  if (!/^[1-9]\d{0,9}$/.test(values.operator)) return '--operator needs a positive whole number';
  return { file, cds, operatorId: Number(values.operator), skipInvalid };
}

function printReport(r: ImportReport, file: string, operator: string, skipInvalid: boolean): void {
  console.log(`${file}: ${r.rows} ${r.format === 'csv' ? 'CSV rows' : 'GeoJSON features'} for ${operator}`);
  if (r.ignoredColumns.length > 0) console.log(`  ignored unknown columns: ${r.ignoredColumns.join(', ')}`);
  for (const x of r.refused) console.log(`  row ${x.row}${x.zoneNumber ? ` (zone ${x.zoneNumber})` : ''}: ${x.reason}`);
  const refused = `${r.refused.length} refused`;
  if (r.imported > 0) console.log(`Imported ${r.imported} zone(s), ${refused}.`);
  else if (r.refused.length > 0 && !skipInvalid && r.refused.length < r.rows) {
    console.log(
      `Nothing imported: ${refused}. Fix them, or pass --skip-invalid to import the other ${r.rows - r.refused.length}.`,
    );
  } else console.log(`Nothing imported: ${r.rows === 0 ? 'the file has no zones' : refused}.`);
}

const CDS_ACCEPT = 'application/vnd.cds+json;version=1.0';
const MAX_PAGES = 1000;

/** Every page of a CDS list answer, following links.next. */
async function fetchPages(url: string): Promise<unknown[]> {
  const pages: unknown[] = [];
  for (let next: string | null = url; next && pages.length < MAX_PAGES;) {
    const res = await fetch(next, { headers: { accept: CDS_ACCEPT } });
    if (!res.ok) throw new CdsFeedError(`${next} answered ${res.status}`);
    const page = (await res.json()) as { links?: { next?: string | null } };
    pages.push(page);
    next = page.links?.next ?? null;
  }
  return pages;
}

/** A feed's documents from a URL (the Curbs base, its zones or its policies: both lists are read) or a file. */
async function readFeed(source: string): Promise<unknown[]> {
  if (/^https?:\/\//i.test(source)) {
    const base = source.replace(/\/+$/, '').replace(/\/(zones|policies)(\?.*)?$/, '');
    return [...(await fetchPages(`${base}/zones`)), ...(await fetchPages(`${base}/policies`))];
  }
  const text = readFileSync(resolve(process.env.INIT_CWD ?? process.cwd(), source), 'utf8');
  try {
    return [JSON.parse(text.replace(/^\uFEFF/, ''))];
  } catch (err) {
    throw new CdsFeedError(`not valid JSON: ${(err as Error).message}`);
  }
}

function printCdsReport(r: CdsImportReport, source: string, operator: string, skipInvalid: boolean): void {
  console.log(`${source}: ${r.rows} Curb Zones for ${operator}`);
  for (const x of r.refused) console.log(`  zone ${x.row}${x.zoneNumber ? ` (${x.zoneNumber})` : ''}: ${x.reason}`);
  const refused = `${r.refused.length} refused`;
  if (r.imported > 0) console.log(`Imported ${r.imported} zone(s) and ${r.policies} price policy(ies), ${refused}.`);
  else if (r.refused.length > 0 && !skipInvalid && r.refused.length < r.rows)
    console.log(
      `Nothing imported: ${refused}. Fix them, or pass --skip-invalid to import the other ${r.rows - r.refused.length}.`,
    );
  else console.log(`Nothing imported: ${r.rows === 0 ? 'the feed has no zones' : refused}.`);
}

async function importCds(args: Args): Promise<number> {
  let docs: unknown[];
  try {
    docs = await readFeed(args.file);
  } catch (err) {
    console.error(`Cannot read ${args.file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    return 1;
  }
  return withOperator(args.operatorId ?? defaultOperatorId, async (db, operator) => {
    try {
      const report = await importCdsFeed(db, operator, feedOf(docs), {
        skipInvalid: args.skipInvalid,
        actor: COMMAND_LINE,
        source: args.file,
      });
      printCdsReport(report, args.file, `operator ${operator.id} (${operator.name})`, args.skipInvalid);
      return report.imported > 0 ? 0 : 1;
    } catch (err) {
      if (!(err instanceof CdsFeedError)) throw err;
      console.error(`${args.file}: ${err.message}. Nothing imported.`);
      return 1;
    }
  });
}

async function main(): Promise<number> {
  // Without `--`, npm keeps the options for itself and passes only their values on.
  const args = cliArgs({
    argv: process.argv.slice(2),
    read: readArgs,
    usage: USAGE,
    npmOptions: ['operator', 'skip_invalid', 'cds'],
    example: 'npm run zones:import -- FILE --operator 2 --skip-invalid',
  });
  if (typeof args === 'number') return args;
  if (args.cds) return importCds(args);
  const path = resolve(process.env.INIT_CWD ?? process.cwd(), args.file);
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (err) {
    console.error(`Cannot read ${args.file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    return 1;
  }
  return withOperator(args.operatorId ?? defaultOperatorId, async (db, operator) => {
    try {
      const report = await importZoneFile(db, operator, content, {
        fileName: basename(path),
        skipInvalid: args.skipInvalid,
        actor: COMMAND_LINE,
      });
      printReport(report, args.file, `operator ${operator.id} (${operator.name})`, args.skipInvalid);
      // The imported zones' rates and paid hours become their price policies (docs/pricing.md#presets).
      if (report.imported > 0) await adoptPresetPolicies(db);
      return report.imported > 0 ? 0 : 1;
    } catch (err) {
      if (err instanceof ZoneNumbersTaken) {
        console.error(`${args.file}: a zone number was taken while importing. Nothing imported; run it again.`);
        return 1;
      }
      if (!(err instanceof ZoneFileError)) throw err;
      console.error(`${args.file}: ${err.message}. Nothing imported.`);
      return 1;
    }
  });
}

runCli(main, 'Import failed');

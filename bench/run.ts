import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { runHttpBench } from './http.ts';
import { printTable } from './table.ts';

/**
 * `npm run bench [-- suite...]`: runs the named suites (all by default) in order, each printing
 * its own table, then a summary. A suite whose file is absent is skipped, so suites can be added
 * by dropping a file in (zones.ts exports runZonesBench).
 */
type Suite = () => Promise<'ran' | 'skipped'>;

async function optional(file: string, exportName: string): Promise<'ran' | 'skipped'> {
  const url = new URL(file, import.meta.url);
  if (!existsSync(fileURLToPath(url))) {
    console.log(`\n${file} is not there: skipped`);
    return 'skipped';
  }
  // A computed specifier, so that the type check does not need the file to exist.
  const mod = (await import(url.href)) as Record<string, unknown>;
  const run = mod[exportName];
  if (typeof run !== 'function') throw new Error(`${file} does not export ${exportName}()`);
  await (run as () => Promise<void>)();
  return 'ran';
}

const SUITES: Record<string, Suite> = {
  http: async () => {
    await runHttpBench();
    return 'ran';
  },
  zones: () => optional('./zones.ts', 'runZonesBench'),
  parking: () => optional('./parking.ts', 'runParkingBench'),
  wallet: () => optional('./wallet.ts', 'runWalletBench'),
  history: () => optional('./history.ts', 'runHistoryBench'),
  web: () => optional('./web.ts', 'runWebBench'),
  tokens: () => optional('./tokens.ts', 'runTokensBench'),
  operator: () => optional('./operator.ts', 'runOperatorBench'),
  enforcement: () => optional('./enforcement.ts', 'runEnforcementBench'),
};

async function main() {
  const asked = process.argv.slice(2).filter((a) => a !== '--');
  const unknown = asked.filter((name) => !(name in SUITES));
  if (unknown.length > 0) {
    throw new Error(`unknown suite(s): ${unknown.join(', ')}; known: ${Object.keys(SUITES).join(', ')}`);
  }
  const names = asked.length > 0 ? asked : Object.keys(SUITES);
  const summary: Record<string, string | number>[] = [];
  for (const name of names) {
    const started = Date.now();
    const outcome = await SUITES[name]!();
    summary.push({ suite: name, outcome, seconds: Math.round((Date.now() - started) / 100) / 10 });
  }
  printTable('bench summary', summary);
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  },
);

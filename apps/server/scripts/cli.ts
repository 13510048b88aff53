import { loadConfig } from '../src/config.ts';
import { openDatabase, type Db } from '../src/db/client.ts';
import { operatorById, type OperatorRecord } from '../src/zones/index.ts';

/**
 * The shared start of our npm-run CLIs (zones:import, operator:key): npm keeping the options for
 * itself when `--` is missing, --help, and a refused option printed with the usage. Answers the
 * parsed arguments, or the exit code to end with.
 */
export function cliArgs<T extends object>(opts: {
  argv: string[];
  read: (argv: string[]) => T | 'help' | string;
  usage: string;
  /** The CLI's options as npm names them in npm_config_* when it takes them for itself. */
  npmOptions: string[];
  example: string;
}): T | number {
  if (opts.npmOptions.some((o) => process.env[`npm_config_${o}`] !== undefined)) {
    console.error(`npm took the options for itself: put -- before them, e.g. ${opts.example}`);
    return 1;
  }
  const args = opts.read(opts.argv);
  if (args === 'help') {
    console.log(opts.usage);
    return 0;
  }
  if (typeof args === 'string') {
    console.error(`${args}\n\n${opts.usage}`);
    return 1;
  }
  return args;
}

/** Runs a CLI's main: its answer is the exit code; a throw prints `<failure>: message` and exits 1. */
export function runCli(main: () => Promise<number>, failure: string): void {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(`${failure}:`, err instanceof Error ? err.message : err);
      process.exit(1);
    },
  );
}

/**
 * Opens the configured database, finds the operator the CLI works for and runs `work` with both;
 * an unknown operator is exit code 1. The database is closed afterwards either way.
 */
export async function withOperator(
  operatorId: number | ((db: Db) => Promise<number>),
  work: (db: Db, operator: OperatorRecord) => Promise<number>,
): Promise<number> {
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const id = typeof operatorId === 'number' ? operatorId : await operatorId(database.db);
    const operator = await operatorById(database.db, id);
    if (!operator) {
      console.error(`No operator ${id}.`);
      return 1;
    }
    return await work(database.db, operator);
  } finally {
    await database.close();
  }
}

// Mutation runs over the layer every screen stands on (issue 7) and over the money code (issue 27):
// `npm run mutate` runs contract and web, `npm run mutate -- contract`, `-- web` or `-- money` one
// (scripts/mutate.mjs). Not part of `npm test`: contract and web take minutes; money took 42 minutes
// on PostgreSQL on 2 busy cores, and PGlite about three times that (each test file builds its
// database in WebAssembly). Reports: reports/mutation/<scope>.html. Each scope runs only its own tests
// (vitest.mutate.config.ts), so a mutant of a schema re-runs the contract's tests, not the web's.
//
// money: the server's ledger, Idempotency-Key handling and Start's one statement (and whatever else
// changes a balance: add its file to `mutate.money`), against the closest server tests
// (`moneyTests` in vitest.mutate.config.ts), once per database: `-- money` runs PGlite, then
// PostgreSQL (the server-pg project's TEST_DATABASE_URL); `-- money:pglite` or `-- money:postgres`
// runs one. MUTATE_DB picks the database, and the report is reports/mutation/money-<database>.html.
const scope = ['web', 'money'].includes(process.env.MUTATE ?? '') ? process.env.MUTATE : 'contract';
process.env.MUTATE = scope;
const database = process.env.MUTATE_DB === 'postgres' ? 'postgres' : 'pglite';
process.env.MUTATE_DB = database;
// MUTATE_NAME names the report of a narrowed run (`npx stryker run --mutate <file>`), so two can run at once.
const report =
  (scope === 'money' ? `money-${database}` : scope) + (process.env.MUTATE_NAME ? `-${process.env.MUTATE_NAME}` : '');

const mutate = {
  contract: ['packages/contract/src/**/*.ts', '!**/*.test.ts', '!packages/contract/src/test-messages.ts'],
  web: [
    'apps/web/src/lib/**/*.ts',
    '!**/*.test.ts',
    // Vite's import.meta.glob takes literals only: a mutant there cannot compile.
    '!apps/web/src/lib/hindi.ts',
    // Four CSS imports, nothing to mutate.
    '!apps/web/src/lib/hindi-font.ts',
  ],
  // Every file that changes a balance or guards a money request: add a file here when one joins them.
  money: [
    'apps/server/src/wallet/ledger.ts',
    'apps/server/src/wallet/idempotency.ts',
    'apps/server/src/parking/start-statement.ts',
    'apps/server/src/wallet/charges.ts',
    'apps/server/src/parking/card-payments.ts',
    'apps/server/src/db/post-entry-sql.ts',
  ],
};

// The sandbox needs only what those tests load.
const ignorePatterns = {
  contract: ['apps/server', 'e2e', 'bench', 'docs', 'tools', 'scripts', '/reports'],
  web: ['apps/server', 'e2e', 'bench', 'docs', 'tools', 'scripts', '/reports'],
  money: ['apps/web', 'e2e', 'bench', 'docs', 'tools', 'scripts', '/reports'],
};

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  mutate: mutate[scope],
  ignorePatterns: ignorePatterns[scope],
  coverageAnalysis: 'perTest',
  concurrency: 1,
  // A server test builds the app on a fresh database first: a mutant gets more than the default 5 s,
  // and on a busy machine more than 15 s, where a time-out was mostly the machine, not the mutant
  // (counted as killed, and each one restarts the test runner: a minute lost).
  ...(scope === 'money' ? { timeoutMS: 60_000 } : {}),
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${report}.html` },
  jsonReporter: { fileName: `reports/mutation/${report}.json` },
  // A later run re-tests only the mutants whose code or tests changed.
  incremental: true,
  incrementalFile: `reports/mutation/${report}-incremental.json`,
};

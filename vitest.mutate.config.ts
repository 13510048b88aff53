import { defineConfig } from 'vitest/config';
import type { Vitest } from 'vitest/node';
import type { Reporter } from 'vitest/reporters';
import './vitest.config.ts'; // its Map.groupBy for Node 20

/**
 * StrykerJS's vitest runner (9.6.1) counts only the tests it collects: a mutant that makes a module
 * throw while it loads (e.g. `new Intl.NumberFormat('')` at module level) leaves the test files
 * that import it with no test at all, and was reported as "Survived". This reporter gives such a
 * file one failed test carrying its load error, so the runner sees the failure and the mutant is
 * killed. A normal run never has such a file (it would fail anyway).
 */
let vitest: Vitest | undefined;
const loadFailures: Reporter = {
  onInit(ctx) {
    vitest = ctx;
  },
  onTestRunEnd() {
    for (const file of vitest?.state.getFiles() ?? []) {
      if (file.result?.state !== 'fail' || file.tasks.length > 0) continue;
      file.tasks.push({
        type: 'test',
        id: `${file.id}_load`,
        name: 'the test file loads',
        fullName: `${file.name} the test file loads`,
        fullTestName: 'the test file loads',
        mode: 'run',
        file,
        suite: file,
        meta: {},
        annotations: [],
        artifacts: [],
        timeout: 0,
        context: undefined as never,
        result: { state: 'fail', errors: file.result.errors },
      });
    }
  },
};

// The tests a mutation run (npm run mutate, stryker.config.mjs) holds against the code it mutates:
// the contract's own tests, the web app's lib/ tests (not the screens' tests, which would make
// each mutant slow and would count a mutant killed by a screen that only passes through lib/), or
// the server tests closest to the money code. MUTATE=contract, web or money picks one
// (stryker.config.mjs sets it); for money, MUTATE_DB=pglite or postgres the database, with the
// environment of the server or server-pg project of vitest.config.ts.
// A mutant re-runs every test of these files that reaches it, each file on a new app and database:
// the fewer the files, the faster the run.
const moneyTests = [
  'test/wallet/money-rules.test.ts',
  'test/wallet/ledger.test.ts',
  'test/parking-start-statement.test.ts',
  'test/wallet/money-paths.test.ts',
  'test/wallet/quick-park-money.test.ts',
  'test/wallet/card-payments.test.ts',
];
const pgUrl = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test'; // as vitest.config.ts
const projects = {
  contract: {
    test: {
      name: 'contract',
      root: 'packages/contract',
      include: ['src/**/*.test.ts'],
      setupFiles: ['../../vitest.setup.ts'],
    },
  },
  web: {
    test: {
      name: 'web-lib',
      root: 'apps/web',
      environment: 'happy-dom',
      css: { include: [/noto-sans-devanagari/] }, // as apps/web/vite.config.ts
      include: ['src/lib/**/*.test.{ts,tsx}'],
      setupFiles: ['../../vitest.setup.ts', './src/testing/setup.ts'],
    },
  },
  money: {
    test: {
      name: `money-${process.env.MUTATE_DB === 'postgres' ? 'postgres' : 'pglite'}`,
      root: 'apps/server',
      include: moneyTests,
      setupFiles: ['../../vitest.setup.ts'],
      env: {
        TEST_DB: process.env.MUTATE_DB === 'postgres' ? 'postgres' : 'pglite',
        TEST_DATABASE_URL: pgUrl,
        NODE_ENV: 'test',
      },
      globalSetup: ['test/support/database-leaks.ts', 'test/support/migrated-template.ts'],
      testTimeout: 30_000,
      hookTimeout: 60_000,
    },
  },
};
const scope = process.env.MUTATE === 'web' || process.env.MUTATE === 'money' ? process.env.MUTATE : 'contract';

export default defineConfig({
  test: { reporters: ['default', loadFailures], projects: [projects[scope]] },
});

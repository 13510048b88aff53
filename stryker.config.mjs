// Mutation runs over the layer every screen stands on (issue 7): `npm run mutate` runs both,
// `npm run mutate -- contract` or `npm run mutate -- web` one. Not part of `npm test`: it takes
// minutes. Reports: reports/mutation/<scope>.html. Each scope runs only its own tests
// (vitest.mutate.config.ts), so a mutant of a schema re-runs the contract's tests, not the web's.
const scope = process.env.MUTATE === 'web' ? 'web' : 'contract';
process.env.MUTATE = scope;

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
};

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts' },
  mutate: mutate[scope],
  // The sandbox needs only what those tests load.
  ignorePatterns: ['apps/server', 'e2e', 'bench', 'docs', 'tools', 'scripts', 'reports'],
  coverageAnalysis: 'perTest',
  concurrency: 1,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: `reports/mutation/${scope}.html` },
  jsonReporter: { fileName: `reports/mutation/${scope}.json` },
  // A later run re-tests only the mutants whose code or tests changed.
  incremental: true,
  incrementalFile: `reports/mutation/${scope}-incremental.json`,
};

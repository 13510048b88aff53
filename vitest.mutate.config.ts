import { defineConfig } from 'vitest/config';
import './vitest.config.ts'; // its Map.groupBy for Node 20

// The tests a mutation run (npm run mutate, stryker.config.mjs) holds against the code it mutates:
// the contract's own tests, or the web app's lib/ tests (not the screens' tests, which would make
// each mutant slow and would count a mutant killed by a screen that only passes through lib/).
// MUTATE=contract or MUTATE=web picks one (stryker.config.mjs sets it).
const projects = {
  contract: { test: { name: 'contract', root: 'packages/contract', include: ['src/**/*.test.ts'], setupFiles: ['../../vitest.setup.ts'] } },
  web: {
    test: {
      name: 'web-lib',
      root: 'apps/web',
      environment: 'happy-dom',
      include: ['src/lib/**/*.test.{ts,tsx}'],
      setupFiles: ['../../vitest.setup.ts', './src/testing/setup.ts'],
    },
  },
};

export default defineConfig({
  test: { projects: process.env.MUTATE === 'web' ? [projects.web] : [projects.contract] },
});

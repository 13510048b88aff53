import { defineConfig } from 'vitest/config';

// Vitest 5 reports failures with Map.groupBy, which Node 20 lacks (Node 21+). Without this a
// failing test crashes the reporter instead of being shown.
if (typeof Map.groupBy !== 'function') {
  Object.defineProperty(Map, 'groupBy', {
    value<K, V>(items: Iterable<V>, key: (item: V, index: number) => K): Map<K, V[]> {
      const map = new Map<K, V[]>();
      let i = 0;
      for (const item of items) {
        const k = key(item, i++);
        const list = map.get(k);
        if (list) list.push(item);
        else map.set(k, [item]);
      }
      return map;
    },
  });
}

const PG_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

// One runner, four projects: the contract, the web app (happy-dom), and the server tests twice,
// once on an in-memory PGlite and once on PostgreSQL (a fresh database per test file).
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contract',
          root: 'packages/contract',
          include: ['src/**/*.test.ts'],
          setupFiles: ['../../vitest.setup.ts'],
        },
      },
      // The web app's project lives in its own Vite config (apps/web/vite.config.ts).
      'apps/web/vite.config.ts',
      {
        test: {
          name: 'server',
          root: 'apps/server',
          include: ['test/**/*.test.ts', 'src/**/*.test.ts', 'scripts/**/*.test.ts'],
          setupFiles: ['../../vitest.setup.ts'],
          // TEST_DATABASE_URL: the tests that need PostgreSQL itself (the pool's client, the leak check).
          env: { TEST_DB: 'pglite', TEST_DATABASE_URL: PG_URL, NODE_ENV: 'test' },
          // Fails the run if a test leaves a PostgreSQL database behind.
          globalSetup: ['test/support/database-leaks.ts', 'test/support/migrated-template.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'server-pg',
          root: 'apps/server',
          include: ['test/**/*.test.ts'],
          setupFiles: ['../../vitest.setup.ts'],
          env: { TEST_DB: 'postgres', TEST_DATABASE_URL: PG_URL, NODE_ENV: 'test' },
          globalSetup: ['test/support/database-leaks.ts', 'test/support/migrated-template.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});

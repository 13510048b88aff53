import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { embeddedDatabaseExists, openDatabase, queryRows } from '../src/db/client.ts';

// The embedded database runs with small buffers (its WebAssembly heap never shrinks,
// docs/scaling.md#memory-of-the-embedded-database), and the server can tell a first start, whose
// database it opens again after seeding.
describe.runIf(process.env.TEST_DB !== 'postgres')('the embedded database’s memory', () => {
  it('opens with 16 MB of shared buffers and of index-build memory, and knows a folder it made', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parkit-mem-'));
    try {
      expect(embeddedDatabaseExists(dir)).toBe(false);
      const database = await openDatabase({ dataDir: dir });
      const [row] = await queryRows<{ shared: string; maintenance: string }>(
        database.db,
        sql`select current_setting('shared_buffers') as shared, current_setting('maintenance_work_mem') as maintenance`,
      );
      await database.close();
      expect(row).toEqual({ shared: '16MB', maintenance: '16MB' });
      expect(embeddedDatabaseExists(dir)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    // A new folder runs initdb, about 5 s alone and several times that on a busy machine.
  }, 180_000);
});

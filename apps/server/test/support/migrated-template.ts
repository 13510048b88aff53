import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../src/db/client.ts';
import { asAdmin, testAdminUrl } from './scratch-database.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * The app's migrations applied once per run, for freshDatabase to start each test file from:
     * on PGlite a dumped data directory (a file's path), on PostgreSQL a template database's name.
     */
    migratedTemplate: string;
  }
}

/**
 * Global setup of the server projects: applies the app's migrations once, to one database, that
 * every test file then copies (test/helpers.ts freshDatabase). A fresh PGlite with its extensions
 * takes about 2.5 s to create and 1.2 s to migrate; one loaded from the dump, about 0.8 s. A
 * PostgreSQL database copied from a template takes about 0.1 s instead of 0.6 s. The copy still
 * goes through openDatabase's migrate, which finds nothing to apply, so a test file that changes a
 * migration meets it. Removed when the run ends.
 */
export default async function setup(project: TestProject) {
  const tag = randomBytes(4).toString('hex');
  if (project.config.env?.TEST_DB === 'postgres') {
    const adminUrl = testAdminUrl(project.config.env.TEST_DATABASE_URL);
    // Not `_<run>_`: the leak check (database-leaks.ts) looks for this run's test databases only.
    const name = `parkit_template_${tag}`;
    await asAdmin(adminUrl, `CREATE DATABASE ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ url: url.toString(), poolSize: 1 });
    await database.close();
    project.provide('migratedTemplate', name);
    return () => asAdmin(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  const database = await openDatabase({ dataDir: 'memory://' });
  const path = join(tmpdir(), `parkit-migrated-${tag}.tar`);
  try {
    writeFileSync(path, Buffer.from(await (await database.dumpDataDir!()).arrayBuffer()));
  } finally {
    await database.close();
  }
  project.provide('migratedTemplate', path);
  return () => rmSync(path, { force: true });
}

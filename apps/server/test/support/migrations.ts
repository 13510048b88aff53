import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVER_ROOT } from '../../src/paths.ts';

export interface JournalEntry {
  idx: number;
  version: string;
  when: number;
  tag: string;
  breakpoints: boolean;
}

/**
 * A copy of the app's migrations folder, its journal changed by `edit` (which may also write
 * files into the folder): a database as an earlier release left it, or a release with one more
 * migration. Applied with applyMigrations (db/client.ts), as a deploy applies them.
 */
export function migrationsCopy(edit: (entries: JournalEntry[], folder: string) => JournalEntry[]): string {
  const folder = mkdtempSync(join(tmpdir(), 'parkit-migrations-'));
  cpSync(join(SERVER_ROOT, 'drizzle'), folder, { recursive: true });
  const journalPath = join(folder, 'meta/_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: JournalEntry[] };
  journal.entries = edit(journal.entries, folder);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

/** The app's migrations up to and with `tag` (e.g. '0019_zone_mercator'). */
export const migrationsUpTo = (tag: string) =>
  migrationsCopy((entries) => {
    const last = entries.findIndex((e) => e.tag === tag);
    if (last < 0) throw new Error(`no migration ${tag}`);
    return entries.slice(0, last + 1);
  });

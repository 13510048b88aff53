import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { CitationFile } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { citationFiles } from '../db/schema/index.ts';
import { cleanFileName, sniffType } from '../support/index.ts';

/**
 * A citation's files (officers' photos, drivers' contest attachments), stored like support's
 * attachments: checked by content (support's sniffType: images and PDF only), written under
 * DATA_DIR/citation-files outside the web root under a random id, never public: the routes serve a
 * file only to the citation's operator or to the driver whose vehicle it is.
 */
export interface CitationFileStore {
  dir: string;
  save(
    db: Executor,
    owner: { operatorId: number | null; kind: 'photo' | 'contest'; uploadedBy: number },
    bytes: Buffer,
    name: string | undefined,
  ): Promise<CitationFile | null>;
  /** A file bound to this citation (the caller has checked the citation is the asker's). */
  find(db: Executor, citationId: number, fileId: string): Promise<CitationFile | null>;
  open(id: string): NodeJS.ReadableStream;
}

const view = (r: typeof citationFiles.$inferSelect): CitationFile => ({
  FileId: r.id,
  Kind: r.kind as CitationFile['Kind'],
  FileName: r.fileName,
  ContentType: r.contentType,
  Size: r.size,
});

export function citationFileStore(dir: string): CitationFileStore {
  return {
    dir,
    async save(db, owner, bytes, name) {
      const sniffed = sniffType(bytes.subarray(0, 16));
      if (!sniffed) return null;
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const id = randomUUID();
      const tmp = join(dir, `${id}.part`);
      await writeFile(tmp, bytes, { mode: 0o600 });
      await rename(tmp, join(dir, id));
      try {
        const [row] = await db
          .insert(citationFiles)
          .values({
            id,
            operatorId: owner.operatorId,
            kind: owner.kind,
            uploadedBy: owner.uploadedBy,
            fileName: cleanFileName(name, sniffed.ext),
            contentType: sniffed.type,
            size: bytes.length,
          })
          .returning();
        if (!row) throw new Error('insert returned no row');
        return view(row);
      } catch (err) {
        await rm(join(dir, id), { force: true });
        throw err;
      }
    },
    async find(db, citationId, fileId) {
      const [row] = await db
        .select()
        .from(citationFiles)
        .where(and(eq(citationFiles.id, fileId), eq(citationFiles.citationId, citationId)))
        .limit(1);
      return row ? view(row) : null;
    },
    open(id) {
      // Ids come from the database (uuids), never from a request path alone.
      return createReadStream(join(dir, id));
    },
  };
}

/**
 * Binds uploaded, still unbound files to a citation, in the caller's transaction: only files of
 * this kind uploaded by this person (and for photos, for this operator). Answers how many were bound.
 */
export async function bindFiles(
  tx: Executor,
  citationId: number,
  ids: string[],
  owner: { kind: 'photo' | 'contest'; uploadedBy: number; operatorId: number | null },
): Promise<number> {
  if (ids.length === 0) return 0;
  const rows = await tx
    .update(citationFiles)
    .set({ citationId })
    .where(
      and(
        sql`${citationFiles.id} in (${sql.join(
          ids.map((i) => sql`${i}::uuid`),
          sql`, `,
        )})`,
        eq(citationFiles.kind, owner.kind),
        eq(citationFiles.uploadedBy, owner.uploadedBy),
        owner.operatorId === null ? undefined : eq(citationFiles.operatorId, owner.operatorId),
        isNull(citationFiles.citationId),
      ),
    )
    .returning({ id: citationFiles.id });
  return rows.length;
}

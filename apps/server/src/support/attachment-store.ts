import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import type { Attachment } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { supportAttachments } from '../db/schema/index.ts';

/**
 * The type of a file by its first bytes, never by its name or the type the browser declared
 * (an .exe named .png is refused). Null for anything but the few types support takes.
 */
export function sniffType(head: Uint8Array): { type: string; ext: string } | null {
  const starts = (sig: number[], at = 0) => sig.every((b, i) => head[at + i] === b);
  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return { type: 'image/png', ext: 'png' };
  if (starts([0xff, 0xd8, 0xff])) return { type: 'image/jpeg', ext: 'jpg' };
  if (starts([0x47, 0x49, 0x46, 0x38]) && (head[4] === 0x37 || head[4] === 0x39) && head[5] === 0x61)
    return { type: 'image/gif', ext: 'gif' };
  if (starts([0x52, 0x49, 0x46, 0x46]) && starts([0x57, 0x45, 0x42, 0x50], 8))
    return { type: 'image/webp', ext: 'webp' };
  if (starts([0x25, 0x50, 0x44, 0x46, 0x2d])) return { type: 'application/pdf', ext: 'pdf' };
  return null;
}

/** A name safe to show and to put in a header: no path, no control characters, at most 120. */
export function cleanFileName(name: string | undefined, ext: string): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  const clean = base
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f"<>|*?:]/g, '')
    .trim()
    .slice(0, 120);
  const stem = clean.replace(/\.[^.]*$/, '') || 'attachment';
  return `${stem.slice(0, 110)}.${ext}`;
}

export interface AttachmentStore {
  dir: string;
  save(
    db: Executor,
    memberId: number,
    uploadedBy: number,
    bytes: Buffer,
    name: string | undefined,
  ): Promise<Attachment | null>;
  /** The attachment of a conversation; agents pass memberId null (they see every one). */
  find(db: Executor, id: string, memberId: number | null): Promise<Attachment | null>;
  open(id: string): NodeJS.ReadableStream;
  /** Removes the files of attachments whose rows were deleted (a deleted account's). */
  remove(ids: string[]): Promise<void>;
}

export function attachmentStore(dir: string): AttachmentStore {
  return {
    dir,
    async save(db, memberId, uploadedBy, bytes, name) {
      const sniffed = sniffType(bytes.subarray(0, 16));
      if (!sniffed) return null;
      await mkdir(dir, { recursive: true, mode: 0o700 });
      const id = randomUUID();
      const tmp = join(dir, `${id}.part`);
      // Written under a temporary name and renamed: a crash never leaves half a file under an id.
      await writeFile(tmp, bytes, { mode: 0o600 });
      await rename(tmp, join(dir, id));
      try {
        const [row] = await db
          .insert(supportAttachments)
          .values({
            id,
            memberId,
            uploadedBy,
            fileName: cleanFileName(name, sniffed.ext),
            contentType: sniffed.type,
            size: bytes.length,
          })
          .returning();
        if (!row) throw new Error('insert returned no row');
        return { AttachmentId: row.id, FileName: row.fileName, ContentType: row.contentType, Size: row.size };
      } catch (err) {
        await rm(join(dir, id), { force: true });
        throw err;
      }
    },
    async find(db, id, memberId) {
      const [row] = await db
        .select()
        .from(supportAttachments)
        .where(
          and(eq(supportAttachments.id, id), memberId === null ? undefined : eq(supportAttachments.memberId, memberId)),
        )
        .limit(1);
      return row
        ? { AttachmentId: row.id, FileName: row.fileName, ContentType: row.contentType, Size: row.size }
        : null;
    },
    open(id) {
      return createReadStream(join(dir, id));
    },
    async remove(ids) {
      // Ids come from the database (uuids), never from a request: no path is built from input.
      for (const id of ids) await rm(join(dir, id), { force: true });
    },
  };
}

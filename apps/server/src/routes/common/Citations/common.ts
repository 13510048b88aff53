import type { FastifyReply, FastifyRequest } from 'fastify';
import { ATTACHMENT_TYPES, CITATION_MESSAGES, SUPPORT_MESSAGES as S, type CitationFile } from '@parkit/contract';
import { badRequest, HttpError, notFound } from '../../../lib/http-error.ts';
import type { CitationFileStore } from '../../../citations/index.ts';
import { mediaAnswer } from '../media-types.ts';

/** What the Citations areas are given (app.ts): the store of photos and contest attachments. */
export interface CitationOptions {
  files: CitationFileStore;
}

/** Multipart settings of the citation upload routes: one file under the key 'file', 5 MB at most. */
export { MAX_ATTACHMENT_BYTES } from '@parkit/contract';

/** Reads the one file of a multipart upload, whole, or refuses it clearly (as support's upload does). */
export async function readCitationUpload(req: FastifyRequest): Promise<{ bytes: Buffer; name: string }> {
  if (!req.isMultipart()) throw badRequest('file', S.fileRequired);
  let part;
  try {
    part = await req.file();
  } catch {
    throw badRequest('file', S.fileRequired);
  }
  if (!part || part.fieldname !== 'file') throw badRequest('file', S.fileRequired);
  let bytes: Buffer;
  try {
    bytes = await part.toBuffer();
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE')
      throw new HttpError(413, S.fileTooLarge, [{ field: 'file', message: S.fileTooLarge }]);
    throw badRequest('file', S.fileRequired);
  }
  if (bytes.length === 0) throw badRequest('file', S.fileRequired);
  return { bytes, name: part.filename };
}

/** Refuses a file whose content is not an image or a PDF (415). */
export function refuseType(): never {
  throw new HttpError(415, S.fileType, [{ field: 'file', message: S.fileType }]);
}

/** A citation's file, in the type its content was checked to be. */
export const citationFileAnswer = mediaAnswer(
  'The file, in the type its content was checked to be',
  ATTACHMENT_TYPES,
  'binary',
);

/** Sends a citation's file with headers that keep the browser from running it (never cached). */
export function sendCitationFile(reply: FastifyReply, store: CitationFileStore, f: CitationFile | null) {
  if (!f) throw notFound(CITATION_MESSAGES.fileNotFound);
  const inline = f.ContentType.startsWith('image/');
  return reply
    .header('content-type', f.ContentType)
    .header('content-length', String(f.Size))
    .header('cache-control', 'private, no-store')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', "default-src 'none'; sandbox")
    .header(
      'content-disposition',
      `${inline ? 'inline' : 'attachment'}; filename="${f.FileName.replace(/[^\w.-]/g, '_')}"`,
    )
    .send(store.open(f.FileId));
}

import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';

const require = createRequire(import.meta.url);
// PDF.js reads the metrics of the standard 14 fonts (Helvetica…) from its own package.
const standardFontDataUrl = join(dirname(require.resolve('pdfjs-dist/package.json')), 'standard_fonts') + '/';

/** The text of every page of a PDF, read with Mozilla's PDF.js (as a reader would see it). */
export async function pdfText(bytes: Uint8Array): Promise<{ pages: number; text: string }> {
  const doc = await getDocument({ data: new Uint8Array(bytes), standardFontDataUrl, isEvalSupported: false }).promise;
  let text = '';
  for (let i = 1; i <= doc.numPages; i++) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    text += content.items.map((it) => ('str' in it ? it.str : '')).join(' ') + '\n';
  }
  const pages = doc.numPages;
  await doc.destroy();
  return { pages, text };
}

import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import PDFDocument from 'pdfkit';
import type { Language } from './language.ts';

// Hindi needs a Devanagari font: Noto Sans Devanagari, shipped by an npm package (no download).
// Its 'devanagari' file holds the Devanagari glyphs; Latin text (plates, amounts) uses Helvetica.
const require = createRequire(import.meta.url);
let devanagari: Buffer | null = null;
function devanagariFont(): Buffer {
  devanagari ??= readFileSync(
    require.resolve('@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff'),
  );
  return devanagari;
}

// The Devanagari file has no Latin glyphs (not even parentheses): text is split into runs, each
// in the font that has its letters.
const DEVANAGARI_RUN = /([\u0900-\u097F\u200C\u200D]+(?:\s+[\u0900-\u097F\u200C\u200D]+)*)/;

export const PDF_MARGIN = 56;
const LABEL_X = PDF_MARGIN;
const VALUE_X = 230;
const TEXT_WIDTH = 480;

/** A document being written: its pdfkit object, the writing helpers, and its bytes once ended. */
export interface PdfPage {
  doc: PDFKit.PDFDocument;
  /** Text whose Devanagari runs use the Devanagari font and everything else Helvetica. */
  write(s: string, size: number, color: string, at?: { x: number; y: number; width: number }, bold?: boolean): void;
  /** A heading: 'ParkIt', the title and a line under it. */
  header(title: string, subtitle: string): void;
  /** A section's title, on a new page when the page is nearly full. */
  section(title: string): void;
  /** Label and value rows (the value bold where `bold` says), running onto more pages. */
  rows(rows: [string, string][], bold?: (label: string) => boolean): void;
  /** A paragraph across the page. */
  note(s: string, size?: number): void;
  /** Ends the document: its bytes. */
  end(): Promise<Buffer>;
}

/**
 * The one way ParkIt writes a PDF (the receipt, a citation's proof pack, a settlement statement): A4,
 * pdfkit, Helvetica with Noto Sans Devanagari for Hindi, label and value rows.
 */
export function pdfPage(info: { Title: string; Subject: string }, lang: Language): PdfPage {
  const doc = new PDFDocument({ size: 'A4', margin: PDF_MARGIN, info: { ...info, Author: 'ParkIt' } });
  if (lang === 'hi') doc.registerFont('deva', devanagariFont());
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const roomFor = (height: number) => {
    if (doc.y > doc.page.height - PDF_MARGIN - height) doc.addPage();
  };

  const write: PdfPage['write'] = (s, size, color, at, bold = false) => {
    const runs = s.split(DEVANAGARI_RUN).filter((run) => run !== '');
    doc.fontSize(size).fillColor(color);
    runs.forEach((run, i) => {
      doc.font(DEVANAGARI_RUN.test(run) && lang === 'hi' ? 'deva' : bold ? 'Helvetica-Bold' : 'Helvetica');
      const opts = { continued: i < runs.length - 1, ...(at ? { width: at.width } : {}) };
      if (i === 0 && at) doc.text(run, at.x, at.y, opts);
      else doc.text(run, opts);
    });
  };

  return {
    doc,
    write,
    header(title, subtitle) {
      write('ParkIt', 26, '#0f766e', undefined, true);
      write(title, 16, '#0f172a');
      doc.moveDown(0.3);
      write(subtitle, 11, '#475569');
      doc.moveDown(1);
    },
    section(title) {
      roomFor(60);
      doc.moveDown(0.6);
      write(title, 13, '#0f172a', { x: LABEL_X, y: doc.y, width: TEXT_WIDTH }, true);
      doc.moveDown(0.3);
    },
    rows(rows, bold = () => false) {
      for (const [label, value] of rows) {
        roomFor(20);
        const y = doc.y;
        write(label, 11, '#475569', { x: LABEL_X, y, width: VALUE_X - LABEL_X - 12 });
        const afterLabel = doc.y;
        write(value, 11, '#0f172a', { x: VALUE_X, y, width: 300 }, bold(label));
        doc.y = Math.max(afterLabel, doc.y) + 6;
      }
    },
    note(s, size = 11) {
      roomFor(30);
      write(s, size, size < 11 ? '#64748b' : '#0f172a', { x: LABEL_X, y: doc.y, width: TEXT_WIDTH });
    },
    end() {
      doc.end();
      return done;
    },
  };
}

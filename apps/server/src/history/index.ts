// The history domain's public entry (past parking: the history list, its CSV and PDF receipts). Routes and other domains import from here, never
// from a file inside; what a file here imports is in history/README.md.
export { formatLocal } from '../lib/local-time.ts';
export * from '../lib/pdf-layout.ts';
export * from './receipt-labels.ts';
export * from './receipt-pdf.ts';
export * from './receipt-repository.ts';
export * from './session-history-repository.ts';
export * from './sessions-csv.ts';

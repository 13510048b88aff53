// The reports domain's public entry (the operator's dashboard, reports and their CSVs, read from
// the rollups the database keeps). Routes import from here, never from a file inside; what a file
// here imports is in reports/README.md.
export * from './report-csv.ts';
export * from './report-repository.ts';
export * from './report-service.ts';
export * from './rollup-fold.ts';

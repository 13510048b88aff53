// Public entry of opendata/ (README.md): routes, app.ts and scripts import from here.
export * from './cds-types.ts';
export * from './cds-ids.ts';
export * from './cds-geometry.ts';
export * from './cds-policy.ts';
export * from './cds-feed.ts';
export * from './cds-import.ts';
export * from './cds-events.ts';
export * from './cds-metrics.ts';

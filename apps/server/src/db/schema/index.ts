// Drizzle's schema entry: drizzle-kit and the db client read every table from here.
export * from './members.ts';
export * from './auth.ts';
export * from './vehicles.ts';
export * from './pricing.ts';
export * from './zones.ts';
export * from './support.ts';
export * from './wallet.ts';
export * from './settlements.ts';
export * from './parking.ts';
export * from './enforcement.ts';
export * from './operators.ts';
export * from './push.ts';
export * from './reports.ts';
export * from './citations.ts';
export * from './permits.ts';
export * from './apds.ts';

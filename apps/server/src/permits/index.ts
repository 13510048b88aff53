// The permits domain's public entry (permit types, applications, payment, visitor days; docs/permits.md).
// Routes import from here, never from a file inside; what a file here imports is in permits/README.md.
export * from './permit-pay.ts';
export * from './permit-service.ts';
export * from './permit-types.ts';

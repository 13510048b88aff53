// The pricing domain's public entry (price policies, their versions and events, the quote engine). Routes and other domains import from here, never
// from a file inside; what a file here imports is in pricing/README.md.
export * from './compiled-policy.ts';
export * from './driver-rates.ts';
export * from './engine.ts';
export * from './policy-repository.ts';
export * from './price-event-repository.ts';
export * from './policy-service.ts';
export * from './rate-now.ts';
export * from './preset.ts';
export * from './permit-holders.ts';

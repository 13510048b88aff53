// The enforcement domain's public entry (operators' API keys and the officers' plate check). Routes and other domains import from here, never
// from a file inside; what a file here imports is in enforcement/README.md.
export * from './api-key-repository.ts';
export * from './api-keys.ts';
export * from './key-cache.ts';
export * from './check-repository.ts';
export { ANONYMISED_PLATE, normalisePlate } from '../lib/plate.ts';
export * from './rights.ts';
export * from './retention.ts';
export * from './chalk-repository.ts';
export * from './rights-list.ts';
export * from './observed.ts';

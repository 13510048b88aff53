// The members domain's public entry (a member's row, parking options and the cache of current sessions). Routes and other domains import from here, never
// from a file inside; what a file here imports is in members/README.md.
export * from './member-repository.ts';
export * from './parking-options-repository.ts';
export * from './reminder-settings-repository.ts';
export * from './session-cache.ts';

// The zones domain's public entry (operators, zones, their paid hours, search and caches, the zone file import). Routes and other domains import from here, never
// from a file inside; what a file here imports is in zones/README.md.
export * from './earth.ts';
export * from './operator-cache.ts';
export * from './operator-repository.ts';
export * from './paid-hours.ts';
export * from './zone-cache.ts';
export * from './zone-file.ts';
export * from './zone-import.ts';
export * from './zone-repository.ts';
export * from './zone-search.ts';
export * from './zone-view.ts';
export * from './zone-admin.ts';
export * from './zone-export.ts';

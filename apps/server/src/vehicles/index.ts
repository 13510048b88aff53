// The vehicles domain's public entry (a member's vehicles and the reference lists the forms pick from). Routes and other domains import from here, never
// from a file inside; what a file here imports is in vehicles/README.md.
export * from './reference-repository.ts';
export * from './vehicle-repository.ts';

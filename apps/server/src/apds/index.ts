// The APDS domain's public entry (ParkIt's zones, prices and sessions as the APDS API's objects). Routes import from here, never
// from a file inside; what a file here imports is in apds/README.md.
export * from './apds-repository.ts';
export * from './apds-quotes.ts';

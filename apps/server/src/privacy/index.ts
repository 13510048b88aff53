// The privacy domain's public entry (a member's data as one file, and the deletion of the account). Routes import from here, never
// from a file inside; what a file here imports is in privacy/README.md.
export * from './account-deletion.ts';
export * from './account-export.ts';

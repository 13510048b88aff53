// The operators domain's public entry (an operator's people and roles, invitations, the audit log's
// view, making operators). Routes and other domains import from here, never from a file inside;
// what a file here imports is in operators/README.md.
export * from './audit-view.ts';
export * from './create-operator.ts';
export * from './invite-repository.ts';
export * from './staff-repository.ts';
export * from './settings-service.ts';
export * from './staff-service.ts';

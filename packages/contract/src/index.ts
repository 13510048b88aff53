// The contract's single entry (docs/conventions.md#imports-flow-one-way: the only barrel). Web and server import from here.
export * from './common.ts';
export * from './messages.ts';
export * from './money.ts';
export * from './format.ts';
export * from './auth.ts';
export * from './account.ts';
export * from './zone.ts';
export * from './vehicle.ts';
export * from './support.ts';
export * from './wallet.ts';
export * from './parking.ts';
export * from './quick-park.ts';
export * from './history.ts';
export * from './operator.ts';
export * from './operator-zones.ts';
export * from './leaving.ts';

// The wallet domain's public entry (balances and the ledger, cards, plans and subscriptions, payment providers, the wallet plugin). Routes and other domains import from here, never
// from a file inside; what a file here imports is in wallet/README.md.
export * from './cards.ts';
export * from './auto-reload.ts';
export * from './card-pay.ts';
export * from './charges.ts';
export * from './idempotency.ts';
export * from './ledger.ts';
export * from './plans.ts';
export { sandboxProvider } from './providers/sandbox.ts';
export * from './providers/stripe.ts';
export * from './refunds.ts';
export * from './settlement.ts';
export * from './settlement-pdf.ts';
export * from './providers/types.ts';
export * from './stripe-events.ts';
export * from './subscriptions.ts';
export * from './wallet-plugin.ts';
export { default as walletPlugin } from './wallet-plugin.ts';
export * from './wallet-service.ts';
export * from './wallet-view.ts';

// The parking domain's public entry (quotes, sessions, prices, Quick Park (guests) and the parking jobs). Routes and other domains import from here, never
// from a file inside; what a file here imports is in parking/README.md.
export * from './guest-extend.ts';
export * from './guest-plugin.ts';
export { default as guestTokensPlugin } from './guest-plugin.ts';
export * from './guest-quote.ts';
export * from './guest-service.ts';
export * from './operator-sessions.ts';
export * from './parking-jobs.ts';
export * from './payments.ts';
export * from './proof.ts';
export { default as parkingProofPlugin } from './proof-plugin.ts';
export * from './quote-service.ts';
export { QuoteInputs, quoteStartAnswered } from './quote-statement.ts';
export { quoteExtendAnswered } from './quote-extend-statement.ts';
export * from './rules.ts';
export * from './saved-cards.ts';
export * from './session-repository.ts';
export * from './session-service.ts';
export { extendAnswered, storedExtend } from './extend-statement.ts';
export { startAnswered, storedStart } from './start-statement.ts';
export { SessionTerms } from './session-terms.ts';
export { stopAnswered } from './stop-statement.ts';

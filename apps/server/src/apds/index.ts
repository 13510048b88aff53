// The APDS domain's public entry (ParkIt's zones, prices and sessions as the APDS API's objects). Routes import from here, never
// from a file inside; what a file here imports is in apds/README.md.
export { APDS_PAGE, idNumber } from './apds-common.ts';
export * from './apds-places.ts';
export * from './apds-rates.ts';
export * from './apds-rights.ts';
export * from './apds-sessions.ts';
export * from './apds-quotes.ts';
export * from './apds-webhooks.ts';
export { deadLetters, replay } from './apds-webhook-outbox.ts';
export {
  webhookSender,
  signature,
  eventBody,
  WEBHOOK_DEFAULTS,
  type WebhookSenderOptions,
} from './apds-webhook-sender.ts';
export * from './apds-assigned.ts';

import { z } from 'zod';

/**
 * Reminders that reach a closed app (docs/product.md#reminders): when before the end a
 * driver is reminded, on which channels, and the browser's Web Push subscription (the W3C Push
 * API's PushSubscription JSON: endpoint and its two keys).
 */

/** What the push routes answer (the web translates them by their English text). */
export const PUSH_MESSAGES = {
  subscribed: 'Push reminders are on for this device',
  unsubscribed: 'Push reminders are off for this device',
  notSubscribed: 'This device is not subscribed',
  endpointHttps: 'endpoint must be an https URL',
  endpointNotPushService: 'endpoint is not a push service',
} as const;

/** The choices a driver has for the reminder before a session ends, in minutes. */
export const REMINDER_MINUTES = [10, 15, 30] as const;
export type ReminderMinutes = (typeof REMINDER_MINUTES)[number];

/** GET/POST /api/Account/Reminders: when the reminder comes and on which channels. */
export const ReminderSettings = z.object({
  /** Minutes before the end: 10, 15 or 30. */
  ReminderMinutes: z.union(REMINDER_MINUTES.map((m) => z.literal(m))),
  /** A Web Push notification to each of the member's subscribed browsers. */
  PushReminders: z.boolean(),
  /** A text message to the member's phone. */
  SmsReminders: z.boolean(),
});
export type ReminderSettings = z.infer<typeof ReminderSettings>;

export const UpdateReminderSettingsRequest = z
  .object({
    ReminderMinutes: z.union(
      REMINDER_MINUTES.map((m) => z.literal(m)),
      { error: 'ReminderMinutes must be 10, 15 or 30' },
    ),
    PushReminders: z.boolean({ error: 'PushReminders must be true or false' }),
    SmsReminders: z.boolean({ error: 'SmsReminders must be true or false' }),
  })
  .partial()
  .refine((o) => Object.keys(o).length > 0, 'Nothing to update');
export type UpdateReminderSettingsRequest = z.input<typeof UpdateReminderSettingsRequest>;

/** Base64url without padding, decoding to exactly `bytes` bytes. */
const base64url = (field: string, bytes: number) =>
  z
    .string({ error: `${field} is required` })
    .regex(/^[A-Za-z0-9_-]+$/, `${field} must be base64url`)
    .refine((s) => Math.floor((s.length * 3) / 4) === bytes, `${field} must be ${bytes} bytes`);

export const PUSH_LANGUAGES = ['en', 'hi', 'es'] as const;
export type PushLanguage = (typeof PUSH_LANGUAGES)[number];

/**
 * POST /api/Push/Subscription: what `PushSubscription.toJSON()` gives (endpoint, keys.p256dh: the
 * browser's P-256 public key, uncompressed, 65 bytes; keys.auth: its 16-byte secret), and the
 * language the notifications are written in.
 */
export const PushSubscriptionRequest = z.object({
  endpoint: z
    .url({ protocol: /^https$/, error: 'endpoint must be an https URL' })
    .max(2048, 'endpoint must be at most 2048 characters'),
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    {
      p256dh: base64url('keys.p256dh', 65).refine(
        (s) => s.startsWith('B'),
        'keys.p256dh must be an uncompressed P-256 key',
      ),
      auth: base64url('keys.auth', 16),
    },
    { error: 'keys is required' },
  ),
  Language: z.enum(PUSH_LANGUAGES, { error: 'Language must be en, hi or es' }).default('en'),
});
export type PushSubscriptionRequest = z.input<typeof PushSubscriptionRequest>;

/** DELETE /api/Push/Subscription: the endpoint to forget. */
export const PushUnsubscribeRequest = z.object({
  endpoint: z.url({ error: 'endpoint must be a URL' }).max(2048, 'endpoint must be at most 2048 characters'),
});
export type PushUnsubscribeRequest = z.infer<typeof PushUnsubscribeRequest>;

/** GET /api/Push/PublicKey: the VAPID public key (applicationServerKey), base64url. */
export const PushPublicKey = z.object({ PublicKey: z.string() });
export type PushPublicKey = z.infer<typeof PushPublicKey>;

/** What the service worker shows (apps/web/public/push-handler.js reads exactly these). */
export const PushMessage = z.object({
  title: z.string(),
  body: z.string(),
  url: z.string(),
  tag: z.string(),
});
export type PushMessage = z.infer<typeof PushMessage>;

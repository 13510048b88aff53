import type { PushLanguage, PushPublicKey, PushSubscriptionRequest } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';

/**
 * This browser's Web Push subscription (docs/product.md#reminders): the Push API's
 * pushManager.subscribe with the server's VAPID key, then POST /api/Push/Subscription; turning it
 * off forgets it at the server and in the browser. The service worker that shows what is pushed
 * is the app's (apps/web/public/push-handler.js).
 */

/** Why this browser cannot get push reminders; the screen says it. */
export type PushRefusal = 'unsupported' | 'denied' | 'no-worker';

export class PushUnavailable extends Error {
  constructor(readonly reason: PushRefusal) {
    super(reason);
  }
}

export const pushSupported = () =>
  typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;

/** `work`, or `fail` once `ms` have passed without it. */
function within<T>(ms: number, work: Promise<T>, fail: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(fail()), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The app's worker registers after the first screen (main.tsx): wait for it a while, not forever. */
const worker = () => within(15_000, navigator.serviceWorker.ready, () => new PushUnavailable('no-worker'));

export async function subscribeThisBrowser(language: PushLanguage): Promise<void> {
  if (!pushSupported()) throw new PushUnavailable('unsupported');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushUnavailable('denied');
  const reg = await worker();
  const { PublicKey } = await api.get<PushPublicKey>('/api/Push/PublicKey');
  // A browser whose push service is out of reach may never answer subscribe(): give up after 15 s.
  const sub =
    (await reg.pushManager.getSubscription()) ??
    (await within(
      15_000,
      reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: PublicKey }),
      () => new Error('the push service did not answer'),
    ));
  await send(sub, language);
}

async function send(sub: PushSubscription, language: PushLanguage) {
  const json = sub.toJSON() as {
    endpoint: string;
    expirationTime?: number | null;
    keys: { p256dh: string; auth: string };
  };
  const body: PushSubscriptionRequest = {
    endpoint: json.endpoint,
    expirationTime: json.expirationTime ?? null,
    keys: json.keys,
    Language: language,
  };
  await api.post('/api/Push/Subscription', body);
}

export async function unsubscribeThisBrowser(): Promise<void> {
  if (!pushSupported()) return;
  const reg = await navigator.serviceWorker.getRegistration();
  const sub = await reg?.pushManager.getSubscription();
  if (!sub) return;
  // Already forgotten at the server (404) is fine: the browser's copy goes either way.
  await api.post('/api/Push/Subscription/Delete', { endpoint: sub.endpoint }, { showError: false }).catch(() => {});
  await sub.unsubscribe();
}

/** After a change of language: this browser's subscription, if any, is sent again in the new one. */
export async function resendThisBrowser(language: PushLanguage): Promise<void> {
  if (!pushSupported() || Notification.permission !== 'granted') return;
  const sub = await (await navigator.serviceWorker.getRegistration())?.pushManager.getSubscription();
  if (sub) await send(sub, language);
}

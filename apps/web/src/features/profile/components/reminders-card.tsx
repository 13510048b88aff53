import { useEffect, useRef, useState } from 'react';
import BellRing from 'lucide-react/icons/bell-ring';
import { REMINDER_MINUTES, type ReminderSettings } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { useReminders, useUpdateReminders } from '../api/reminders.ts';
import {
  PushUnavailable,
  resendThisBrowser,
  subscribeThisBrowser,
  unsubscribeThisBrowser,
} from '../api/push-subscription.ts';

/**
 * Reminders (docs/product.md#reminders): when before a session's end (10, 15 or 30 minutes) and on
 * which channels: push notifications to this device, which reach it with the app closed, and text
 * messages. Turning push on asks the browser's permission and subscribes this device first.
 */
export function RemindersCard() {
  const { t, i18n } = useTranslation();
  const reminders = useReminders();
  const update = useUpdateReminders();
  const [subscribing, setSubscribing] = useState(false);

  // Notifications are written in the language the subscription was sent with: a new language
  // (the switch on this screen) sends it again.
  const language = useRef(i18n.language);
  const pushOn = reminders.data?.PushReminders === true;
  useEffect(() => {
    if (language.current === i18n.language) return;
    language.current = i18n.language;
    if (pushOn) resendThisBrowser(i18n.language).catch(() => {});
  }, [i18n.language, pushOn]);

  const refusal = (err: unknown) => {
    // A refused request: the API client has shown its toast already.
    if (err instanceof ApiError) return null;
    // The browser's push service refused or is out of reach (pushManager.subscribe's AbortError).
    if (!(err instanceof PushUnavailable)) return t('Push notifications could not be turned on. Try again later.');
    if (err.reason === 'denied') return t('Notifications are blocked for ParkIt. Allow them in your browser settings.');
    if (err.reason === 'no-worker')
      return t('Push notifications need the app to finish loading. Try again in a moment.');
    return t('This browser cannot receive push notifications.');
  };

  async function setPush(on: boolean) {
    setSubscribing(true);
    try {
      if (on) {
        await subscribeThisBrowser(i18n.language);
        await update.mutateAsync({ PushReminders: true });
      } else {
        await update.mutateAsync({ PushReminders: false });
        await unsubscribeThisBrowser();
      }
    } catch (err) {
      const message = refusal(err);
      if (message) toast.error(message);
    } finally {
      setSubscribing(false);
    }
  }

  return (
    <section aria-labelledby="reminders-title" className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <h2 id="reminders-title" className="mb-2 flex items-center gap-2 text-base font-semibold text-slate-900">
        <BellRing className="size-5 text-brand-700" aria-hidden />
        {t('Reminders')}
      </h2>
      <Loaded
        query={reminders}
        skeleton={<Skeleton rows={3} className="h-8" />}
        failed={t('Your reminder settings could not be loaded.')}
        compact
      >
        {(data: ReminderSettings) => (
          <div className="space-y-2">
            <fieldset>
              <legend className="mb-1 text-sm text-slate-800">{t('Remind me before my parking ends')}</legend>
              <div className="grid grid-cols-3 gap-1 rounded-xl bg-slate-100 p-1">
                {REMINDER_MINUTES.map((m) => (
                  <label
                    key={m}
                    className="flex min-h-11 cursor-pointer items-center justify-center rounded-lg text-center text-sm font-semibold text-slate-600 has-[:checked]:bg-white has-[:checked]:text-brand-800 has-[:checked]:shadow-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600"
                  >
                    <input
                      type="radio"
                      name="reminder-minutes"
                      value={m}
                      checked={data.ReminderMinutes === m}
                      onChange={() => update.mutate({ ReminderMinutes: m })}
                      className="sr-only"
                    />
                    {t('{{count}} minutes', { count: m })}
                  </label>
                ))}
              </div>
            </fieldset>
            <div>
              <Switch
                label={t('Push notifications on this device')}
                checked={data.PushReminders}
                disabled={subscribing}
                onCheckedChange={(v) => void setPush(v)}
              />
              <p className="-mt-1 pb-2 text-xs text-slate-500">{t('They reach you even when the app is closed.')}</p>
            </div>
            <Switch
              label={t('Text messages (SMS)')}
              checked={data.SmsReminders}
              onCheckedChange={(v) => update.mutate({ SmsReminders: v })}
            />
          </div>
        )}
      </Loaded>
    </section>
  );
}

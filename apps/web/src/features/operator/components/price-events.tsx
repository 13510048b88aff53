import { formatDate, formatTime, PriceEventRequest, type PriceEvent } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { toast } from '../../../lib/toasts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { FormSelect } from '../../../components/ui/form-fields.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useCancelPriceEvent, useCreatePriceEvent, usePolicies, usePriceEvents } from '../api/prices.ts';
import { ZonePicker } from './zone-picker.tsx';

const card = 'rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200';

/** Price events (a match day, a festival): a price over the policy for some zones and hours. */
export function PriceEvents({ operatorId, writes }: { operatorId: number; writes: boolean }) {
  const { t } = useTranslation();
  const events = usePriceEvents(operatorId);
  const cancel = useCancelPriceEvent(operatorId);
  return (
    <div className="grid gap-4 lg:grid-cols-[2fr_1fr]">
      <section aria-labelledby="events-title" className={card}>
        <h2 id="events-title" className="mb-3 text-lg font-bold text-slate-900">
          {t('Events')}
        </h2>
        <Loaded
          query={events}
          skeleton={<Skeleton rows={2} className="h-12" />}
          failed={t('Events could not be loaded.')}
        >
          {(list: PriceEvent[]) =>
            list.length === 0 ? (
              <p className="text-slate-600">{t('No event is coming.')}</p>
            ) : (
              <ul className="divide-y divide-slate-200">
                {list.map((e) => (
                  <li key={e.EventId} className="flex flex-wrap items-center gap-2 py-2">
                    <div className="min-w-0 flex-1">
                      <p className="font-semibold break-words text-slate-900">{e.Name}</p>
                      <p className="text-sm text-slate-600">
                        {formatDate(e.StartsAt)} {formatTime(e.StartsAt)} – {formatDate(e.EndsAt)}{' '}
                        {formatTime(e.EndsAt)} · {t('{{count}} zones', { count: e.ZoneIds.length })}
                      </p>
                    </div>
                    {e.CancelledAt ? (
                      <span className="rounded-full bg-slate-100 px-3 py-1 text-sm text-slate-700">
                        {t('Cancelled')}
                      </span>
                    ) : (
                      writes && (
                        <Button
                          variant="ghost"
                          size="sm"
                          disabled={cancel.isPending}
                          onClick={() =>
                            cancel.mutate(e.EventId, { onSuccess: () => toast.success(t('Event cancelled')) })
                          }
                        >
                          {t('Cancel event {{name}}', { name: e.Name })}
                        </Button>
                      )
                    )}
                  </li>
                ))}
              </ul>
            )
          }
        </Loaded>
      </section>
      {writes && <EventForm operatorId={operatorId} />}
    </div>
  );
}

type EventForm = PriceEventRequest;
const localInstant = (v: unknown) => (typeof v === 'string' && v !== '' ? new Date(v).toISOString() : v);

function EventForm({ operatorId }: { operatorId: number }) {
  const { t } = useTranslation();
  const create = useCreatePriceEvent(operatorId);
  const policies = usePolicies(operatorId);
  const form = useSchemaForm<EventForm>(PriceEventRequest, {
    Name: '',
    StartsAt: '',
    EndsAt: '',
    ZoneIds: [],
  });
  const picked = form.watch('ZoneIds') ?? [];
  const submit = form.handleSubmit(async (body) => {
    try {
      await create.mutateAsync(body);
      toast.success(t('Event created'));
      form.reset();
    } catch (err) {
      showFormError(err, form.setError, ['Name', 'StartsAt', 'EndsAt', 'PolicyId', 'ZoneIds'], {
        toast: (e) => e.message,
      });
    }
  });
  return (
    <section aria-labelledby="event-form-title" className={card}>
      <h2 id="event-form-title" className="mb-3 text-lg font-bold text-slate-900">
        {t('New event')}
      </h2>
      <form className="flex flex-col gap-3" onSubmit={(e) => void submit(e)} noValidate>
        <TextField label={t('Event name')} {...form.field('Name')} />
        <TextField
          type="datetime-local"
          label={t('Starts')}
          {...form.register('StartsAt', { setValueAs: localInstant })}
          error={form.formState.errors.StartsAt?.message}
        />
        <TextField
          type="datetime-local"
          label={t('Ends')}
          {...form.register('EndsAt', { setValueAs: localInstant })}
          error={form.formState.errors.EndsAt?.message}
        />
        <FormSelect
          control={form.control}
          name="PolicyId"
          label={t('Priced by')}
          placeholder={t('Choose a policy')}
          options={(policies.data ?? []).map((p) => ({ value: String(p.PolicyId), label: p.Name }))}
          onValueChange={(v) => form.setValue('PolicyId', Number(v))}
        />
        <ZonePicker
          operatorId={operatorId}
          picked={picked}
          onPick={(ids) => form.setValue('ZoneIds', ids, { shouldValidate: form.formState.isSubmitted })}
          label={t('Zones')}
        />
        {form.formState.errors.ZoneIds?.message && (
          <p role="alert" className="text-xs font-medium text-red-600">
            {t(form.formState.errors.ZoneIds.message)}
          </p>
        )}
        <Button type="submit" loading={form.submitting}>
          {t('Create event')}
        </Button>
      </form>
    </section>
  );
}

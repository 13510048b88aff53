import { useState } from 'react';
import {
  formatDate,
  formatTime,
  operatorCan,
  PriceEventRequest,
  type OperatorZone,
  type PolicyDetail,
  type PolicySummary,
  type PriceEvent,
} from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { toast } from '../../../lib/toasts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { FormSelect } from '../../../components/ui/form-fields.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import {
  useAssignPolicy,
  useCancelPriceEvent,
  useCreatePriceEvent,
  usePolicies,
  usePolicy,
  usePricedZones,
  usePriceEvents,
} from '../api/prices.ts';
import { NEW_POLICY, PolicyEditor } from './policy-editor.tsx';
import { useMembership } from './console-shell.tsx';

const card = 'rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200';

/**
 * Prices (/operator/{id}/prices): the operator's price policies, the editor of a new one or of the
 * next version of one, with its live preview; the zones a policy prices; events. Every role reads;
 * owners and managers change (docs/pricing.md).
 */
export function PricesScreen() {
  const { t } = useTranslation();
  const membership = useMembership();
  const operatorId = membership.OperatorId;
  const writes = operatorCan(membership.Role, 'prices');
  const policies = usePolicies(operatorId);
  const [chosen, setChosen] = useState<number | 'new' | null>(null);
  return (
    <div className="flex flex-col gap-4">
      <div className="grid gap-4 lg:grid-cols-[1fr_3fr]">
        <section aria-labelledby="prices-title" className={card}>
          <h1 id="prices-title" className="mb-3 text-xl font-bold text-slate-900">
            {t('Prices')}
          </h1>
          {writes && (
            <Button variant="secondary" block onClick={() => setChosen('new')}>
              {t('New policy')}
            </Button>
          )}
          <Loaded
            query={policies}
            skeleton={<Skeleton rows={3} className="h-12" />}
            failed={t('Price policies could not be loaded.')}
          >
            {(list) => <PolicyList list={list} chosen={chosen} onChoose={setChosen} />}
          </Loaded>
        </section>
        <div className="min-w-0">
          {chosen === 'new' ? (
            <PolicyEditor
              key="new"
              operatorId={operatorId}
              policyId={null}
              name=""
              body={NEW_POLICY}
              onSaved={(id) => setChosen(id)}
            />
          ) : chosen === null ? (
            <p className={`${card} text-slate-600`}>{t('Choose a policy to see its versions and zones.')}</p>
          ) : (
            <PolicyPanel operatorId={operatorId} policyId={chosen} writes={writes} />
          )}
        </div>
      </div>
      <PriceEvents operatorId={operatorId} writes={writes} />
    </div>
  );
}

function PolicyList({
  list,
  chosen,
  onChoose,
}: {
  list: PolicySummary[];
  chosen: number | 'new' | null;
  onChoose: (id: number) => void;
}) {
  const { t } = useTranslation();
  if (list.length === 0) return <p className="mt-3 text-slate-600">{t('No price policy yet.')}</p>;
  return (
    <ul className="mt-3 flex flex-col gap-1">
      {list.map((p) => (
        <li key={p.PolicyId}>
          <button
            type="button"
            aria-current={chosen === p.PolicyId ? 'true' : undefined}
            onClick={() => onChoose(p.PolicyId)}
            className="min-h-11 w-full rounded-lg px-3 py-2 text-start break-words hover:bg-slate-100 aria-[current=true]:bg-brand-50 aria-[current=true]:font-semibold"
          >
            <span className="block text-slate-900">{p.Name}</span>
            <span className="block text-xs text-slate-600">
              {t('version {{current}} in force, {{latest}} latest', {
                current: p.CurrentVersion,
                latest: p.LatestVersion,
              })}{' '}
              · {t('{{count}} zones', { count: p.ZoneCount })}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}

function PolicyPanel({ operatorId, policyId, writes }: { operatorId: number; policyId: number; writes: boolean }) {
  const { t } = useTranslation();
  const policy = usePolicy(operatorId, policyId);
  return (
    <Loaded
      query={policy}
      skeleton={<Skeleton rows={4} className="h-16" />}
      failed={t('The price policy could not be loaded.')}
    >
      {(p) => {
        const latest = p.Versions.at(-1);
        return (
          <div className="flex flex-col gap-4">
            <section aria-labelledby="versions-title" className={card}>
              <h2 id="versions-title" className="mb-2 text-lg font-bold break-words text-slate-900">
                {p.Name}
              </h2>
              <ul className="flex flex-col gap-1 text-sm text-slate-700">
                {[...p.Versions].reverse().map((v) => (
                  <li key={v.Version}>
                    {t('Version {{version}}, in force from {{date}} {{time}}', {
                      version: v.Version,
                      date: formatDate(v.EffectiveFrom),
                      time: formatTime(v.EffectiveFrom),
                    })}
                    {v.Version === p.CurrentVersion && (
                      <span className="ms-2 rounded-full bg-green-100 px-2 text-green-800">{t('in force')}</span>
                    )}
                  </li>
                ))}
              </ul>
            </section>
            {writes && <AssignZones operatorId={operatorId} policy={p} />}
            {writes && latest && (
              <PolicyEditor
                key={`${p.PolicyId}-${latest.Version}`}
                operatorId={operatorId}
                policyId={p.PolicyId}
                name={p.Name}
                body={latest.Body}
                onSaved={() => undefined}
              />
            )}
          </div>
        );
      }}
    </Loaded>
  );
}

/** A search box over the operator's zones and the zones it finds as checkboxes. */
function ZonePicker({
  operatorId,
  picked,
  onPick,
  label,
  exclude = [],
}: {
  operatorId: number;
  picked: number[];
  onPick: (ids: number[]) => void;
  label: string;
  exclude?: number[];
}) {
  const { t } = useTranslation();
  const [q, setQ] = useState('');
  const zones = usePricedZones(operatorId, q.trim());
  return (
    <div className="flex flex-col gap-2">
      <TextField label={t('Find zones')} type="search" value={q} onChange={(e) => setQ(e.target.value)} />
      <Loaded query={zones} skeleton={<Skeleton rows={2} className="h-10" />} failed={t('Zones could not be loaded.')}>
        {(page) => (
          <ZoneChecklist
            zones={page.Zones.filter((z) => !exclude.includes(z.ZoneId))}
            picked={picked}
            onPick={onPick}
            label={label}
          />
        )}
      </Loaded>
    </div>
  );
}

function ZoneChecklist({
  zones,
  picked,
  onPick,
  label,
}: {
  zones: OperatorZone[];
  picked: number[];
  onPick: (ids: number[]) => void;
  label: string;
}) {
  const { t } = useTranslation();
  if (zones.length === 0) return <p className="text-sm text-slate-600">{t('No zone found.')}</p>;
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{label}</legend>
      <div className="mt-1 flex max-h-56 flex-wrap gap-2 overflow-y-auto">
        {zones.map((z) => (
          <label key={z.ZoneId} className="flex min-h-11 items-center gap-2 rounded-lg px-2 ring-1 ring-slate-300">
            <input
              type="checkbox"
              checked={picked.includes(z.ZoneId)}
              onChange={(e) =>
                onPick(e.target.checked ? [...picked, z.ZoneId] : picked.filter((id) => id !== z.ZoneId))
              }
            />
            <span className="break-words">
              {z.ZoneNumber} · {z.Name}
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

function AssignZones({ operatorId, policy }: { operatorId: number; policy: PolicyDetail }) {
  const { t } = useTranslation();
  const assign = useAssignPolicy(operatorId);
  const [picked, setPicked] = useState<number[]>([]);
  return (
    <section aria-labelledby="assign-title" className={card}>
      <h2 id="assign-title" className="mb-2 text-lg font-bold text-slate-900">
        {t('Zones priced by this policy')}
      </h2>
      <p className="mb-2 text-sm text-slate-600">{t('{{count}} zones', { count: policy.ZoneIds.length })}</p>
      <div className="flex flex-col gap-3">
        <ZonePicker
          operatorId={operatorId}
          exclude={policy.ZoneIds}
          picked={picked}
          onPick={setPicked}
          label={t('Price these zones by it from now on')}
        />
        <Button
          disabled={picked.length === 0}
          loading={assign.isPending}
          onClick={() =>
            assign.mutate(
              { policyId: policy.PolicyId, body: { ZoneIds: picked } },
              {
                onSuccess: () => {
                  toast.success(t('Zones priced by {{name}}', { name: policy.Name }));
                  setPicked([]);
                },
              },
            )
          }
        >
          {t('Price the chosen zones')}
        </Button>
      </div>
    </section>
  );
}

function PriceEvents({ operatorId, writes }: { operatorId: number; writes: boolean }) {
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

import { useState } from 'react';
import { z } from 'zod';
import { formatDate, formatTime, operatorCan, type OperatorSession } from '@parkit/contract';
import { useTranslation, type TFunction } from '../../../lib/i18n.ts';
import { useMoney } from '../../../lib/money.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useOperatorSession, useOperatorSessions, useZoneChoices, type SessionFilters } from '../api/sessions.ts';
import { useMembership } from './console-shell.tsx';
import { RefundDialog } from './refund-dialog.tsx';

const NO_FILTERS: SessionFilters = { zoneId: '', from: '', to: '', plate: '' };

const when = (iso: string) => `${formatDate(iso)} ${formatTime(iso)}`;
const statusLabel = (t: TFunction, s: OperatorSession['Status']) => (s === 'active' ? t('Running') : t('Ended'));
const paidViaLabel = (t: TFunction, via: string) => (via === 'Card' ? t('Card (Quick Park)') : t('Wallet'));

/**
 * Sessions (/operator/{id}/sessions): find a session of the operator's zones by zone, the days it
 * started and the plate (masked unless the operator shows plates), see what was paid and refunded,
 * and (owners and managers) refund it with a reason.
 */
export function SessionsScreen() {
  const { t } = useTranslation();
  const { OperatorId } = useMembership();
  const [filters, setFilters] = useState<SessionFilters>(NO_FILTERS);
  const [chosen, setChosen] = useState<number | null>(null);
  return (
    <div className="grid gap-4 lg:grid-cols-[3fr_2fr]">
      <section aria-labelledby="sessions-title" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h1 id="sessions-title" className="text-xl font-bold text-slate-900">
          {t('Sessions')}
        </h1>
        <p className="mb-3 text-sm text-slate-600">{t('Find a session by zone, day or plate, and refund it.')}</p>
        <SearchForm operatorId={OperatorId} onSearch={setFilters} />
        <SessionList operatorId={OperatorId} filters={filters} chosen={chosen} onChoose={setChosen} />
      </section>
      <SessionDetail operatorId={OperatorId} sessionId={chosen} />
    </div>
  );
}

/** The search's fields, as the list's query sends them (the server checks the days and the plate). */
const SearchFields = z.object({
  zoneId: z.string(),
  from: z.string(),
  to: z.string(),
  plate: z.string().max(20, 'At most 20 characters'),
});

function SearchForm({ operatorId, onSearch }: { operatorId: number; onSearch: (f: SessionFilters) => void }) {
  const { t } = useTranslation();
  const zones = useZoneChoices(operatorId);
  const form = useSchemaForm<SessionFilters>(SearchFields, NO_FILTERS);
  const submit = form.handleSubmit((f) => onSearch(f));
  return (
    <form
      role="search"
      aria-label={t('Search sessions')}
      className="mb-4 grid gap-3 sm:grid-cols-2 xl:grid-cols-4"
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <SelectField
        label={t('Zone')}
        placeholder={t('All zones')}
        {...form.field('zoneId')}
        options={(zones.data?.Zones ?? []).map((z) => ({
          value: String(z.ZoneId),
          label: `${z.ZoneNumber} · ${z.Name}`,
        }))}
      />
      <TextField label={t('Plate')} {...form.field('plate')} autoComplete="off" maxLength={20} />
      <TextField label={t('Started from')} type="date" {...form.field('from')} />
      <TextField label={t('Started until')} type="date" {...form.field('to')} />
      <div className="flex flex-wrap gap-2 sm:col-span-2 xl:col-span-4">
        <Button type="submit">{t('Search')}</Button>
        <Button
          type="button"
          variant="ghost"
          onClick={() => {
            form.reset(NO_FILTERS);
            onSearch(NO_FILTERS);
          }}
        >
          {t('Clear')}
        </Button>
      </div>
    </form>
  );
}

function SessionList({
  operatorId,
  filters,
  chosen,
  onChoose,
}: {
  operatorId: number;
  filters: SessionFilters;
  chosen: number | null;
  onChoose: (id: number) => void;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const list = useOperatorSessions(operatorId, filters);
  return (
    <Loaded query={list} skeleton={<Skeleton rows={4} className="h-14" />} failed={t('Sessions could not be loaded.')}>
      {(data) => {
        const sessions = data.pages.flatMap((p) => p.Sessions);
        if (sessions.length === 0) return <p className="text-slate-600">{t('No session matches.')}</p>;
        return (
          <>
            <ul className="divide-y divide-slate-200" data-testid="operator-sessions">
              {sessions.map((s) => (
                <li key={s.SessionId}>
                  <button
                    type="button"
                    aria-pressed={chosen === s.SessionId}
                    onClick={() => onChoose(s.SessionId)}
                    className={`flex w-full flex-wrap items-center gap-x-4 gap-y-1 rounded-lg px-2 py-3 text-start hover:bg-slate-50 ${chosen === s.SessionId ? 'bg-brand-50' : ''}`}
                  >
                    <span className="min-w-0 flex-1">
                      <span className="block font-semibold break-words text-slate-900">
                        {t('Session {{id}}', { id: s.SessionId })} · {t('Zone {{number}}', { number: s.ZoneNumber })}
                      </span>
                      <span className="block text-sm break-words text-slate-600">
                        {s.PlateNumber} {s.PlateState} · {when(s.StartedAt)} · {statusLabel(t, s.Status)}
                      </span>
                    </span>
                    <span className="text-sm font-semibold text-slate-900 tabular-nums">{money(s.AmountPaid)}</span>
                  </button>
                </li>
              ))}
            </ul>
            {list.hasNextPage && (
              <Button
                variant="secondary"
                className="mt-3"
                loading={list.isFetchingNextPage}
                onClick={() => void list.fetchNextPage()}
              >
                {t('Load older')}
              </Button>
            )}
          </>
        );
      }}
    </Loaded>
  );
}

function SessionDetail({ operatorId, sessionId }: { operatorId: number; sessionId: number | null }) {
  const { t } = useTranslation();
  const money = useMoney();
  const { Role } = useMembership();
  const detail = useOperatorSession(operatorId, sessionId);
  const [refunding, setRefunding] = useState(false);
  return (
    <section
      aria-labelledby="session-detail-title"
      aria-live="polite"
      className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      <h2 id="session-detail-title" className="mb-3 text-lg font-bold text-slate-900">
        {sessionId === null ? t('Session') : t('Session {{id}}', { id: sessionId })}
      </h2>
      {sessionId === null ? (
        <p className="text-slate-600">{t('Choose a session to see what was paid and refunded.')}</p>
      ) : (
        <Loaded
          query={detail}
          skeleton={<Skeleton rows={3} className="h-10" />}
          failed={t('The session could not be loaded.')}
          refused={{ status: [404], message: t('Session not found') }}
          compact
        >
          {(s) => (
            <>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="operator-session">
                <dt className="text-slate-500">{t('Zone')}</dt>
                <dd className="break-words text-slate-900">{s.ZoneNumber}</dd>
                <dt className="text-slate-500">{t('Plate')}</dt>
                <dd className="break-words text-slate-900">
                  {s.PlateNumber} {s.PlateState}
                </dd>
                <dt className="text-slate-500">{t('Started')}</dt>
                <dd className="text-slate-900">{when(s.StartedAt)}</dd>
                <dt className="text-slate-500">{t('Ended')}</dt>
                <dd className="text-slate-900">{s.EndedAt ? when(s.EndedAt) : statusLabel(t, s.Status)}</dd>
                <dt className="text-slate-500">{t('Paid with')}</dt>
                <dd className="text-slate-900">{paidViaLabel(t, s.PaidVia)}</dd>
                <dt className="text-slate-500">{t('Parking')}</dt>
                <dd className="text-slate-900 tabular-nums">{money(s.ParkingAmount)}</dd>
                <dt className="text-slate-500">{t('Fee')}</dt>
                <dd className="text-slate-900 tabular-nums">{money(s.FeeAmount)}</dd>
                <dt className="text-slate-500">{t('Refunded')}</dt>
                <dd className="text-slate-900 tabular-nums" data-testid="refunded-amount">
                  {money(s.RefundedAmount)}
                </dd>
                <dt className="font-semibold text-slate-700">{t('Paid in all')}</dt>
                <dd className="font-semibold text-slate-900 tabular-nums">{money(s.AmountPaid)}</dd>
              </dl>
              <h3 className="mt-4 mb-2 font-semibold text-slate-900">{t('Refunds from the console')}</h3>
              {s.Refunds.length === 0 ? (
                <p className="text-sm text-slate-600">{t('No refund yet.')}</p>
              ) : (
                <ul className="divide-y divide-slate-200 text-sm">
                  {s.Refunds.map((r) => (
                    <li key={r.RefundId} className="py-2">
                      <p className="font-semibold text-slate-900 tabular-nums">{money(r.Amount)}</p>
                      <p className="break-words text-slate-700">{r.Reason}</p>
                      <p className="text-slate-500">
                        {t('by {{name}}', { name: r.By })} · {when(r.At)}
                      </p>
                    </li>
                  ))}
                </ul>
              )}
              {operatorCan(Role, 'refunds') &&
                (s.Refundable > 0 ? (
                  <>
                    <Button className="mt-4" onClick={() => setRefunding(true)}>
                      {t('Refund')}
                    </Button>
                    <RefundDialog
                      key={s.SessionId}
                      operatorId={operatorId}
                      session={s}
                      open={refunding}
                      onOpenChange={setRefunding}
                    />
                  </>
                ) : (
                  <p className="mt-4 text-sm text-slate-600">
                    {s.Status === 'active'
                      ? t('A running session is refunded by stopping it')
                      : t('Nothing is left to refund on this session')}
                  </p>
                ))}
            </>
          )}
        </Loaded>
      )}
    </section>
  );
}

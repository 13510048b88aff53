import { useState } from 'react';
import Download from 'lucide-react/icons/download';
import {
  formatDate,
  formatTime,
  IssueStatementRequest,
  operatorCan,
  type Statement,
  type StatementLine,
} from '@parkit/contract';
import { useTranslation, type TFunction } from '../../../lib/i18n.ts';
import { useMoney } from '../../../lib/money.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { downloadFile } from '../../../lib/download-file.ts';
import { toast } from '../../../lib/toasts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { FormSelect } from '../../../components/ui/form-fields.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { statementFile, useIssueStatement, useStatement, useStatements } from '../api/settlement.ts';
import { useMembership } from './console-shell.tsx';

const when = (iso: string) => `${formatDate(iso)} ${formatTime(iso)}`;
const periodLabel = (t: TFunction, s: Pick<Statement, 'Period' | 'Start'>) =>
  s.Period === 'day' ? t('Day {{date}}', { date: s.Start }) : t('Month {{month}}', { month: s.Start.slice(0, 7) });
const sourceLabel = (t: TFunction, source: StatementLine['Source']) =>
  source === 'ledger' ? t('Wallet') : source === 'card-payment' ? t('Card payment') : t('Card refund');

/**
 * Settlement (/operator/{id}/settlement): the operator's statements (gross, refunds, the platform's
 * fees, net) per day or month, each with the lines it covers, downloadable as CSV and PDF; owners
 * and managers issue one. An issued statement never changes: later money goes into the next one.
 */
export function SettlementScreen() {
  const { t } = useTranslation();
  const { OperatorId, Role } = useMembership();
  const statements = useStatements(OperatorId);
  const [chosen, setChosen] = useState<number | null>(null);
  const money = useMoney();
  return (
    <div className="grid gap-4 lg:grid-cols-[2fr_3fr]">
      <div className="flex flex-col gap-4">
        {operatorCan(Role, 'settle') && <IssueForm operatorId={OperatorId} onIssued={setChosen} />}
        <section
          aria-labelledby="statements-title"
          className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
        >
          <h1 id="statements-title" className="text-xl font-bold text-slate-900">
            {t('Settlement')}
          </h1>
          <p className="mb-3 text-sm text-slate-600">
            {t('A statement never changes once issued: later money goes into the next one.')}
          </p>
          <Loaded
            query={statements}
            skeleton={<Skeleton rows={3} className="h-14" />}
            failed={t('Statements could not be loaded.')}
          >
            {(list) =>
              list.length === 0 ? (
                <p className="text-slate-600">{t('No statement has been issued yet.')}</p>
              ) : (
                <ul className="divide-y divide-slate-200" data-testid="statements">
                  {list.map((s) => (
                    <li key={s.StatementId}>
                      <button
                        type="button"
                        aria-pressed={chosen === s.StatementId}
                        onClick={() => setChosen(s.StatementId)}
                        className={`flex w-full flex-wrap items-center gap-x-4 gap-y-1 rounded-lg px-2 py-3 text-start hover:bg-slate-50 ${chosen === s.StatementId ? 'bg-brand-50' : ''}`}
                      >
                        <span className="min-w-0 flex-1 font-semibold break-words text-slate-900">
                          {periodLabel(t, s)}
                        </span>
                        <span className="text-sm text-slate-900 tabular-nums">
                          {t('Net {{amount}}', { amount: money(s.Net) })}
                        </span>
                      </button>
                    </li>
                  ))}
                </ul>
              )
            }
          </Loaded>
        </section>
      </div>
      <StatementDetail operatorId={OperatorId} statementId={chosen} />
    </div>
  );
}

function IssueForm({ operatorId, onIssued }: { operatorId: number; onIssued: (id: number) => void }) {
  const { t } = useTranslation();
  const issue = useIssueStatement(operatorId);
  const form = useSchemaForm<IssueStatementRequest>(IssueStatementRequest, { Period: 'day', Start: '' });
  const period = form.watch('Period');
  const submit = form.handleSubmit(async (body) => {
    try {
      const s = await issue.mutateAsync(body);
      toast.success(t('Statement issued'));
      onIssued(s.StatementId);
    } catch (err) {
      showFormError(err, form.setError, ['Period', 'Start']);
    }
  });
  return (
    <section aria-labelledby="issue-title" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 id="issue-title" className="mb-3 text-lg font-bold text-slate-900">
        {t('Issue a statement')}
      </h2>
      <form className="flex flex-col gap-3" onSubmit={(e) => void submit(e)} noValidate>
        <FormSelect
          control={form.control}
          name="Period"
          label={t('Period')}
          placeholder={t('Choose a period')}
          options={[
            { value: 'day', label: t('A day') },
            { value: 'month', label: t('A month') },
          ]}
        />
        <TextField
          label={period === 'month' ? t('Month (YYYY-MM)') : t('Day (YYYY-MM-DD)')}
          type={period === 'month' ? 'month' : 'date'}
          {...form.field('Start')}
        />
        <Button type="submit" loading={form.submitting}>
          {t('Issue statement')}
        </Button>
      </form>
    </section>
  );
}

function StatementDetail({ operatorId, statementId }: { operatorId: number; statementId: number | null }) {
  const { t } = useTranslation();
  const money = useMoney();
  const detail = useStatement(operatorId, statementId);
  const [busy, setBusy] = useState(false);
  const download = async (id: number, kind: 'csv' | 'pdf') => {
    setBusy(true);
    try {
      await downloadFile(statementFile(operatorId, id, kind), `parkit-statement-${id}.${kind}`);
    } catch {
      toast.error(t('The statement could not be downloaded.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section
      aria-labelledby="statement-title"
      aria-live="polite"
      className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
    >
      <h2 id="statement-title" className="mb-3 text-lg font-bold text-slate-900">
        {t('Statement')}
      </h2>
      {statementId === null ? (
        <p className="text-slate-600">{t('Choose a statement to see its lines.')}</p>
      ) : (
        <Loaded
          query={detail}
          skeleton={<Skeleton rows={4} className="h-10" />}
          failed={t('The statement could not be loaded.')}
          refused={{ status: [404], message: t('Statement not found') }}
          compact
        >
          {(s) => (
            <>
              <p className="mb-2 font-semibold text-slate-900">{periodLabel(t, s)}</p>
              <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm" data-testid="statement">
                <dt className="text-slate-500">{t('Gross')}</dt>
                <dd className="text-slate-900 tabular-nums">{money(s.Gross)}</dd>
                <dt className="text-slate-500">{t('Refunds')}</dt>
                <dd className="text-slate-900 tabular-nums">{money(-s.Refunds)}</dd>
                <dt className="text-slate-500">{t('Platform fees')}</dt>
                <dd className="text-slate-900 tabular-nums">{money(-s.Fees)}</dd>
                <dt className="font-semibold text-slate-700">{t('Net')}</dt>
                <dd className="font-semibold text-slate-900 tabular-nums" data-testid="statement-net">
                  {money(s.Net)}
                </dd>
                <dt className="text-slate-500">{t('Covers money moved before')}</dt>
                <dd className="text-slate-900">{when(s.CutOff)}</dd>
                <dt className="text-slate-500">{t('Issued')}</dt>
                <dd className="break-words text-slate-900">
                  {when(s.IssuedAt)} · {t('by {{name}}', { name: s.IssuedBy })}
                </dd>
              </dl>
              <div className="mt-3 flex flex-wrap gap-2">
                <Button variant="secondary" loading={busy} onClick={() => void download(s.StatementId, 'csv')}>
                  {!busy && <Download className="size-4" aria-hidden />}
                  {t('Download CSV')}
                </Button>
                <Button variant="secondary" loading={busy} onClick={() => void download(s.StatementId, 'pdf')}>
                  {!busy && <Download className="size-4" aria-hidden />}
                  {t('Download PDF')}
                </Button>
              </div>
              <h3 className="mt-4 mb-2 font-semibold text-slate-900">
                {t('{{count}} lines', { count: s.Lines.length })}
              </h3>
              {s.Lines.length === 0 ? (
                <p className="text-sm text-slate-600">{t('No money moved in this period.')}</p>
              ) : (
                <ul className="divide-y divide-slate-200 text-sm" data-testid="statement-lines">
                  {s.Lines.map((l) => (
                    <li key={`${l.Source}-${l.SourceId}`} className="flex flex-wrap justify-between gap-x-4 py-2">
                      <span className="min-w-0 break-words text-slate-700">
                        {sourceLabel(t, l.Source)} · {t('Session {{id}}', { id: l.SessionId })} · {when(l.At)}
                      </span>
                      <span className="text-slate-900 tabular-nums">{money(l.Amount)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </>
          )}
        </Loaded>
      )}
    </section>
  );
}

import { useState } from 'react';
import { z } from 'zod';
import { formatDate, formatTime, operatorCan, type Citation, type CitationStatus } from '@parkit/contract';
import { useTranslation, type TFunction } from '../../../lib/i18n.ts';
import { useIntentKey } from '../../../lib/intent-key.ts';
import { useMoney } from '../../../lib/money.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { toastFailure } from '../../../lib/form-errors.ts';
import { toast } from '../../../lib/toasts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { PrivateFile } from '../../../components/ui/private-file.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import {
  operatorCitationFileUrl,
  useDecideContest,
  useOperatorCitations,
  useViolationChanges,
  useViolations,
  type ViolationBody,
} from '../api/citations.ts';
import { useMembership } from './console-shell.tsx';

const when = (iso: string) => `${formatDate(iso)} ${formatTime(iso)}`;
const statusLabel = (t: TFunction, s: CitationStatus) =>
  ({
    issued: t('Issued'),
    paid: t('Paid'),
    contested: t('Contested'),
    upheld: t('Upheld'),
    cancelled: t('Cancelled'),
    reduced: t('Reduced'),
  })[s];

/**
 * Citations in the console (/operator/{id}/citations): the violations list (owners and
 * managers add and retire), and the citations by status, with their evidence and, for a contest
 * waiting, the decision (upheld, cancelled with refund, reduced).
 */
export function CitationsConsoleScreen() {
  const { t } = useTranslation();
  const { OperatorId } = useMembership();
  return (
    <div className="grid gap-4 lg:grid-cols-[2fr_3fr]">
      <Violations operatorId={OperatorId} />
      <section aria-labelledby="citations-title" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
        <h2 id="citations-title" className="mb-3 text-xl font-bold text-slate-900">
          {t('Citations')}
        </h2>
        <CitationList operatorId={OperatorId} />
      </section>
    </div>
  );
}

const ViolationFields = z.object({
  Code: z.string().trim().min(1, 'Enter a code').max(20, 'At most 20 characters'),
  Description: z.string().trim().min(1, 'Enter a description').max(200, 'At most 200 characters'),
  Fine: z.string().trim().min(1, 'Enter an amount such as 25.00, more than 0'),
  DueDays: z
    .string()
    .trim()
    .regex(/^\d{1,3}$/, 'Enter a number of days from 1 to 365'),
  LateFee: z.string().trim(),
});
const EMPTY: ViolationBody = { Code: '', Description: '', Fine: '', DueDays: '14', LateFee: '0' };

function Violations({ operatorId }: { operatorId: number }) {
  const { t } = useTranslation();
  const money = useMoney();
  const { Role } = useMembership();
  const list = useViolations(operatorId);
  const { add, retire } = useViolationChanges(operatorId);
  const form = useSchemaForm<ViolationBody>(ViolationFields, EMPTY);
  const canChange = operatorCan(Role, 'citations');
  const submit = form.handleSubmit(async (body) => {
    try {
      await add.mutateAsync(body);
      toast.success(t('Violation added'));
      form.reset(EMPTY);
    } catch (err) {
      toastFailure(err);
    }
  });
  return (
    <section aria-labelledby="violations-title" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h1 id="violations-title" className="mb-3 text-xl font-bold text-slate-900">
        {t('Violations')}
      </h1>
      <Loaded
        query={list}
        skeleton={<Skeleton rows={3} className="h-10" />}
        failed={t('Violations could not be loaded.')}
      >
        {(violations) =>
          violations.length === 0 ? (
            <p className="text-slate-600">{t('No violation yet.')}</p>
          ) : (
            <ul className="divide-y divide-slate-200 text-sm" data-testid="violations">
              {violations.map((v) => (
                <li key={v.ViolationId} className="flex flex-wrap items-center gap-2 py-2">
                  <span className="min-w-0 flex-1 break-words">
                    <span className="font-semibold text-slate-900">{v.Code}</span> · {v.Description} · {money(v.Fine)} ·{' '}
                    {t('{{count}} days to pay', { count: v.DueDays })}
                    {v.LateFee > 0 && <> · {t('late fee {{amount}}', { amount: money(v.LateFee) })}</>}
                    {v.Retired && <> · {t('Retired')}</>}
                  </span>
                  {canChange && !v.Retired && (
                    <Button
                      variant="ghost"
                      size="sm"
                      onClick={() => retire.mutate(v.ViolationId, { onError: toastFailure })}
                    >
                      {t('Retire')}
                    </Button>
                  )}
                </li>
              ))}
            </ul>
          )
        }
      </Loaded>
      {canChange && (
        <form
          className="mt-4 grid gap-3 sm:grid-cols-2"
          onSubmit={(e) => void submit(e)}
          noValidate
          aria-label={t('Add a violation')}
        >
          <TextField label={t('Code')} {...form.field('Code')} maxLength={20} />
          <TextField label={t('Description')} {...form.field('Description')} maxLength={200} />
          <TextField label={t('Fine')} inputMode="decimal" {...form.field('Fine')} />
          <TextField label={t('Days to pay')} inputMode="numeric" {...form.field('DueDays')} />
          <TextField label={t('Late fee')} inputMode="decimal" {...form.field('LateFee')} />
          <div className="flex items-end">
            <Button type="submit" loading={form.submitting}>
              {t('Add a violation')}
            </Button>
          </div>
        </form>
      )}
    </section>
  );
}

function CitationList({ operatorId }: { operatorId: number }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<CitationStatus | ''>('contested');
  const list = useOperatorCitations(operatorId, status);
  const options: CitationStatus[] = ['issued', 'paid', 'contested', 'upheld', 'cancelled', 'reduced'];
  return (
    <>
      <div className="mb-3 max-w-xs">
        <SelectField
          label={t('Status')}
          placeholder={t('Every status')}
          value={status}
          onChange={(e) => setStatus(e.target.value as CitationStatus | '')}
          options={options.map((s) => ({ value: s, label: statusLabel(t, s) }))}
        />
      </div>
      <Loaded
        query={list}
        skeleton={<Skeleton rows={3} className="h-24" />}
        failed={t('Citations could not be loaded.')}
      >
        {(citations) =>
          citations.length === 0 ? (
            <p className="text-slate-600">{t('No citation matches.')}</p>
          ) : (
            <ul className="divide-y divide-slate-200" data-testid="operator-citations">
              {citations.map((c) => (
                <CitationRow key={c.CitationId} operatorId={operatorId} citation={c} />
              ))}
            </ul>
          )
        }
      </Loaded>
    </>
  );
}

function CitationRow({ operatorId, citation: c }: { operatorId: number; citation: Citation }) {
  const { t } = useTranslation();
  const money = useMoney();
  const { Role } = useMembership();
  const decide = useDecideContest(operatorId);
  const intent = useIntentKey();
  const [newFine, setNewFine] = useState('');
  const waiting = c.Status === 'contested' && c.Contest && c.Contest.Decision === null;
  const send = (Decision: 'upheld' | 'cancelled' | 'reduced') => {
    const body = { Decision, Note: '', ...(Decision === 'reduced' ? { NewFine: newFine } : {}) };
    decide.mutate(
      { citationId: c.CitationId, body, key: intent.keyFor(body) },
      {
        onSuccess: () => {
          intent.done();
          toast.success(t('Decision saved'));
        },
        onError: toastFailure,
      },
    );
  };
  return (
    <li className="py-3 text-sm">
      <p className="font-semibold break-words text-slate-900">
        {t('Citation {{id}}', { id: c.CitationId })} · {c.ViolationCode} · {money(c.Fine)} · {statusLabel(t, c.Status)}
      </p>
      <p className="break-words text-slate-600">
        {c.PlateNumber} {c.PlateState} · {t('Zone {{number}}', { number: c.ZoneNumber })} · {when(c.IssuedAt)} ·{' '}
        {t('by {{name}}', { name: c.Officer })}
      </p>
      <div className="mt-2 flex flex-wrap gap-2">
        {c.Files.map((f) => (
          <PrivateFile
            key={f.FileId}
            url={operatorCitationFileUrl(operatorId, c.CitationId, f.FileId)}
            name={f.FileName}
            contentType={f.ContentType}
          />
        ))}
      </div>
      {c.Contest && (
        <p className="mt-2 break-words text-slate-700">{t('Contest: {{reason}}', { reason: c.Contest.Reason })}</p>
      )}
      {waiting && operatorCan(Role, 'citations') && (
        <div className="mt-2 flex flex-wrap items-end gap-2">
          <Button size="sm" variant="secondary" loading={decide.isPending} onClick={() => send('upheld')}>
            {t('Uphold')}
          </Button>
          <Button size="sm" variant="secondary" loading={decide.isPending} onClick={() => send('cancelled')}>
            {t('Cancel and refund')}
          </Button>
          <TextField
            label={t('New fine')}
            inputMode="decimal"
            value={newFine}
            onChange={(e) => setNewFine(e.target.value)}
            className="w-28"
          />
          <Button
            size="sm"
            variant="secondary"
            loading={decide.isPending}
            onClick={() => send('reduced')}
            disabled={!newFine}
          >
            {t('Reduce')}
          </Button>
        </div>
      )}
    </li>
  );
}

import { useState } from 'react';
import { z } from 'zod';
import { formatDate, formatTime, type Citation } from '@parkit/contract';
import { useTranslation, type TFunction } from '../../../lib/i18n.ts';
import { useMoney } from '../../../lib/money.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { toastFailure } from '../../../lib/form-errors.ts';
import { toast } from '../../../lib/toasts.tsx';
import { useIntentKey } from '../../../lib/intent-key.ts';
import { paths } from '../../../config/paths.ts';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { PayFrom } from '../../../components/ui/pay-from.tsx';
import { PrivateFile } from '../../../components/ui/private-file.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { citationFileUrl, useCitations, useContestCitation, usePayCitation } from '../api/citations.ts';
import { ProofPackButton } from './proof-pack-button.tsx';

const when = (iso: string) => `${formatDate(iso)} ${formatTime(iso)}`;

export const statusLabel = (t: TFunction, s: Citation['Status']) =>
  ({
    issued: t('To pay'),
    paid: t('Paid'),
    contested: t('Contested: waiting for a decision'),
    upheld: t('Contest refused: to pay'),
    cancelled: t('Cancelled'),
    reduced: t('Fine reduced: to pay'),
  })[s];

/**
 * Citations (/citations): the citations of the plates of the driver's vehicles, with the officer's
 * photos, paid from the wallet or by the saved card, or contested with a reason and attachments.
 */
export function CitationsScreen() {
  const { t } = useTranslation();
  const list = useCitations();
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <PageHeader title={t('Citations')} back={paths.profile} />
      <main className="mx-auto flex w-full max-w-xl flex-col gap-3 p-4">
        <Loaded
          query={list}
          skeleton={<Skeleton rows={3} className="h-32" />}
          failed={t('Citations could not be loaded.')}
        >
          {(citations) =>
            citations.length === 0 ? (
              <p className="text-slate-600">{t('No citation for your vehicles.')}</p>
            ) : (
              <ul className="flex flex-col gap-3" data-testid="citations">
                {citations.map((c) => (
                  <CitationCard key={c.CitationId} citation={c} />
                ))}
              </ul>
            )
          }
        </Loaded>
      </main>
    </div>
  );
}

function CitationCard({ citation: c }: { citation: Citation }) {
  const { t } = useTranslation();
  const money = useMoney();
  const pay = usePayCitation();
  const [from, setFrom] = useState<number | undefined>(undefined);
  // One Idempotency-Key per intent: a retry of the same choice repeats it, another source is a new one.
  const intent = useIntentKey();
  const [contesting, setContesting] = useState(false);
  const payNow = () => {
    const body = from === undefined ? {} : { PaymentMethodId: from };
    pay.mutate(
      { citationId: c.CitationId, key: intent.keyFor(body), body },
      {
        onSuccess: () => {
          intent.done();
          toast.success(t('Paid'));
        },
        onError: toastFailure,
      },
    );
  };
  return (
    <li className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <p className="font-semibold break-words text-slate-900">
        {t('Citation {{id}}', { id: c.CitationId })} · {c.ViolationDescription}
      </p>
      <p className="text-sm break-words text-slate-600">
        {c.PlateNumber} {c.PlateState} · {t('Zone {{number}}', { number: c.ZoneNumber })} · {when(c.IssuedAt)}
      </p>
      {c.Location && <p className="text-sm break-words text-slate-600">{c.Location}</p>}
      <p className="mt-1 text-sm font-medium text-slate-900">{statusLabel(t, c.Status)}</p>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-500">{t('Fine')}</dt>
        <dd className="text-slate-900 tabular-nums">{money(c.Fine)}</dd>
        {c.LateFee > 0 && (
          <>
            <dt className="text-slate-500">{t('Late fee')}</dt>
            <dd className="text-slate-900 tabular-nums">{money(c.LateFee)}</dd>
          </>
        )}
        <dt className="text-slate-500">{t('Due by')}</dt>
        <dd className="text-slate-900">{formatDate(c.DueAt)}</dd>
        {c.AmountPaid > 0 && (
          <>
            <dt className="text-slate-500">{t('Paid')}</dt>
            <dd className="text-slate-900 tabular-nums">{money(c.AmountPaid)}</dd>
          </>
        )}
        {c.Refunded > 0 && (
          <>
            <dt className="text-slate-500">{t('Refunded')}</dt>
            <dd className="text-slate-900 tabular-nums">{money(c.Refunded)}</dd>
          </>
        )}
      </dl>
      {c.Files.length > 0 && (
        <div className="mt-3">
          <h3 className="mb-1 text-sm font-semibold text-slate-700">{t('Evidence')}</h3>
          <div className="flex flex-wrap gap-2">
            {c.Files.map((f) => (
              <PrivateFile
                key={f.FileId}
                url={citationFileUrl(c.CitationId, f.FileId)}
                name={f.FileName}
                contentType={f.ContentType}
              />
            ))}
          </div>
        </div>
      )}
      {c.Contest && (
        <div className="mt-3 text-sm">
          <p className="text-slate-700">{t('Your contest: {{reason}}', { reason: c.Contest.Reason })}</p>
          {c.Contest.Decision && c.Contest.DecisionNote && <p className="text-slate-600">{c.Contest.DecisionNote}</p>}
        </div>
      )}
      {c.AmountDue > 0 && <PayFrom name={`pay-citation-${c.CitationId}`} value={from} onChange={setFrom} />}
      <div className="mt-3 flex flex-wrap gap-2">
        {c.AmountDue > 0 && (
          <Button onClick={payNow} loading={pay.isPending}>
            {from === undefined
              ? t('Pay {{amount}} from the wallet', { amount: money(c.AmountDue) })
              : t('Pay {{amount}} by card', { amount: money(c.AmountDue) })}
          </Button>
        )}
        {!c.Contest && (c.Status === 'issued' || c.Status === 'paid') && (
          <Button variant="secondary" onClick={() => setContesting((v) => !v)}>
            {t('Contest')}
          </Button>
        )}
        <ProofPackButton citationId={c.CitationId} />
      </div>
      {contesting && <ContestForm citationId={c.CitationId} onDone={() => setContesting(false)} />}
    </li>
  );
}

const ContestFields = z.object({
  reason: z.string().trim().min(1, 'Enter the reason').max(1000, 'At most 1000 characters'),
});
type ContestFields = z.infer<typeof ContestFields>;

function ContestForm({ citationId, onDone }: { citationId: number; onDone: () => void }) {
  const { t } = useTranslation();
  const contest = useContestCitation();
  const [files, setFiles] = useState<File[]>([]);
  const form = useSchemaForm<ContestFields>(ContestFields, { reason: '' });
  const submit = form.handleSubmit(async ({ reason }) => {
    try {
      await contest.mutateAsync({ citationId, reason, files });
      toast.success(t('Your contest was sent'));
      onDone();
    } catch (err) {
      toastFailure(err);
    }
  });
  return (
    <form className="mt-3 flex flex-col gap-3" onSubmit={(e) => void submit(e)} noValidate aria-label={t('Contest')}>
      <TextField label={t('Why do you contest this citation?')} {...form.field('reason')} maxLength={1000} />
      <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
        {t('Attachments (images or PDF, up to 5)')}
        <input
          type="file"
          multiple
          accept="image/png,image/jpeg,image/gif,image/webp,application/pdf"
          onChange={(e) => setFiles([...(e.target.files ?? [])].slice(0, 5))}
          className="text-sm"
        />
      </label>
      <div className="flex gap-2">
        <Button type="submit" loading={form.submitting}>
          {t('Send the contest')}
        </Button>
        <Button type="button" variant="ghost" onClick={onDone}>
          {t('Cancel')}
        </Button>
      </div>
    </form>
  );
}

import { useState } from 'react';
import { z } from 'zod';
import { formatDate, operatorCan, PERMIT_STATUS_VALUES, type Permit } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { showFormError, toastFailure } from '../../../lib/form-errors.ts';
import { toast } from '../../../lib/toasts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { PrivateFile } from '../../../components/ui/private-file.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { permitProofUrl, useDecidePermit, useOperatorPermits } from '../api/permits.ts';
import { useMembership } from './console-shell.tsx';
import { statusLabel, type PermitStatus } from './permit-labels.ts';

/** Pending first, then newest first (the server's order). */
const pendingFirst = (list: Permit[]) =>
  [...list].sort((a, b) => Number(b.Status === 'pending') - Number(a.Status === 'pending'));

/** The applications, pending first, with their proof and, for a pending one, Approve and Refuse with a reason. */
export function PermitApplications({ operatorId }: { operatorId: number }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<PermitStatus | ''>('pending');
  const list = useOperatorPermits(operatorId, status);
  return (
    <>
      <div className="mb-3 max-w-xs">
        <SelectField
          label={t('Status')}
          placeholder={t('Every status')}
          value={status}
          onChange={(e) => setStatus(e.target.value as PermitStatus | '')}
          options={PERMIT_STATUS_VALUES.map((s) => ({ value: s, label: statusLabel(t, s) }))}
        />
      </div>
      <Loaded
        query={list}
        skeleton={<Skeleton rows={3} className="h-16" />}
        failed={t('Applications could not be loaded.')}
      >
        {(permits) =>
          permits.length === 0 ? (
            <p className="text-slate-600">{t('No application matches.')}</p>
          ) : (
            <ul className="divide-y divide-slate-200" data-testid="permit-applications">
              {pendingFirst(permits).map((p) => (
                <ApplicationRow key={p.Id} operatorId={operatorId} permit={p} />
              ))}
            </ul>
          )
        }
      </Loaded>
    </>
  );
}

function ApplicationRow({ operatorId, permit: p }: { operatorId: number; permit: Permit }) {
  const { t } = useTranslation();
  const { Role } = useMembership();
  const decide = useDecidePermit(operatorId);
  const [refusing, setRefusing] = useState(false);
  const approve = () =>
    decide.mutate(
      { permitId: p.Id },
      {
        onSuccess: () => toast.success(t('Application approved')),
        onError: toastFailure,
      },
    );
  return (
    <li className="flex flex-wrap items-center gap-3 py-3 text-sm">
      <div className="min-w-0 flex-1">
        <p className="font-semibold break-words text-slate-900">
          {t('Driver {{id}}', { id: p.MemberId })} · {p.TypeName} · {statusLabel(t, p.Status)}
        </p>
        <p className="break-words text-slate-600">
          {p.Plates.join(', ')} · {t('Applied {{date}}', { date: formatDate(p.CreatedAt) })}
        </p>
        {p.RefusalReason && (
          <p className="break-words text-slate-700">{t('Refused: {{reason}}', { reason: p.RefusalReason })}</p>
        )}
      </div>
      {p.ProofAttachmentId && (
        <PrivateFile
          url={permitProofUrl(operatorId, p.Id)}
          name={t('Proof of application {{id}}', { id: p.Id })}
          contentType="application/octet-stream"
        />
      )}
      {p.Status === 'pending' && operatorCan(Role, 'permits') && (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" loading={decide.isPending} onClick={approve}>
            {t('Approve')}
          </Button>
          <Button size="sm" variant="secondary" disabled={decide.isPending} onClick={() => setRefusing(true)}>
            {t('Refuse')}
          </Button>
          <RefuseDialog operatorId={operatorId} permit={p} open={refusing} onOpenChange={setRefusing} />
        </div>
      )}
    </li>
  );
}

const RefuseForm = z.object({
  Reason: z.string().trim().min(1, 'Say why the application is refused').max(500, 'At most 500 characters'),
});
type RefuseForm = z.infer<typeof RefuseForm>;

function RefuseDialog({
  operatorId,
  permit,
  open,
  onOpenChange,
}: {
  operatorId: number;
  permit: Permit;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const decide = useDecidePermit(operatorId);
  const form = useSchemaForm<RefuseForm>(RefuseForm, { Reason: '' });
  const submit = form.handleSubmit(async (v) => {
    try {
      await decide.mutateAsync({ permitId: permit.Id, refuse: { Reason: v.Reason } });
      toast.success(t('Application refused'));
      form.reset({ Reason: '' });
      onOpenChange(false);
    } catch (err) {
      showFormError(err, form.setError, ['Reason']);
    }
  });
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('Refuse application {{id}}', { id: permit.Id })}
      description={t('The driver reads the reason.')}
    >
      <form className="flex flex-col gap-3" onSubmit={(e) => void submit(e)} noValidate>
        <TextField label={t('Reason')} maxLength={500} autoComplete="off" {...form.field('Reason')} />
        <Button type="submit" variant="danger" loading={form.submitting}>
          {t('Refuse')}
        </Button>
        <Button variant="ghost" onClick={() => onOpenChange(false)}>
          {t('Cancel')}
        </Button>
      </form>
    </Dialog>
  );
}

import { z } from 'zod';
import { RefundRequest, type OperatorSessionDetail } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { useIntentKey } from '../../../lib/intent-key.ts';
import { toast } from '../../../lib/toasts.tsx';
import { useMoney } from '../../../lib/money.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { useRefund, type RefundBody } from '../api/sessions.ts';

/** The dialog's fields, checked by the contract's RefundRequest (an amount, or the whole, and a reason). */
const RefundForm = z.object({ Amount: z.string(), Whole: z.boolean(), Reason: z.string() }).superRefine((v, ctx) => {
  const checked = RefundRequest.safeParse(bodyOf(v));
  if (checked.success) return;
  for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
});
type RefundForm = z.infer<typeof RefundForm>;

const bodyOf = (v: RefundForm): RefundBody =>
  v.Whole ? { Whole: true, Reason: v.Reason } : { Amount: v.Amount.trim(), Reason: v.Reason };

/**
 * Refund a session (the console's Sessions screen): an amount or the whole of what is left, and the
 * reason, which the driver's wallet and the audit log keep. One Idempotency-Key per intent: a
 * second press or a retry of the same refund gives it once.
 */
export function RefundDialog({
  operatorId,
  session,
  open,
  onOpenChange,
}: {
  operatorId: number;
  session: OperatorSessionDetail;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const refund = useRefund(operatorId, session.SessionId);
  const intent = useIntentKey();
  const form = useSchemaForm<RefundForm>(RefundForm, { Amount: '', Whole: false, Reason: '' });
  const whole = form.watch('Whole');
  const submit = form.handleSubmit(async (v) => {
    const body = bodyOf(v);
    try {
      const done = await refund.mutateAsync({ body, key: intent.keyFor(body) });
      intent.done();
      toast.success(t('Refunded {{amount}}', { amount: money(done.Amount) }));
      form.reset({ Amount: '', Whole: false, Reason: '' });
      onOpenChange(false);
    } catch (err) {
      showFormError(err, form.setError, ['Amount', 'Reason']);
    }
  });
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('Refund session {{id}}', { id: session.SessionId })}
      description={t('Up to {{amount}} can be refunded. It goes back the way the driver paid.', {
        amount: money(session.Refundable),
      })}
    >
      <form className="flex flex-col gap-3" onSubmit={(e) => void submit(e)} noValidate>
        <label className="flex min-h-11 items-center gap-3 text-sm text-slate-800">
          <input type="checkbox" className="size-5 accent-brand-700" {...form.register('Whole')} />
          <span>{t('Refund the whole amount left ({{amount}})', { amount: money(session.Refundable) })}</span>
        </label>
        {!whole && (
          <TextField
            label={t('Amount ({{symbol}})', { symbol: money.symbol })}
            inputMode="decimal"
            autoComplete="off"
            {...form.field('Amount')}
          />
        )}
        <TextField label={t('Reason')} maxLength={500} autoComplete="off" {...form.field('Reason')} />
        <Button type="submit" loading={form.submitting}>
          {t('Refund')}
        </Button>
        <Button type="button" variant="ghost" onClick={() => onOpenChange(false)}>
          {t('Cancel')}
        </Button>
      </form>
    </Dialog>
  );
}

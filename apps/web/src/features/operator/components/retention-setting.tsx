import { z } from 'zod';
import { RetentionWeeks, type OperatorSettings } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { toast } from '../../../lib/toasts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { useChangeSettings } from '../api/settings.ts';

const whole = (s: string) => (/^\d{1,9}$/.test(s.trim()) ? Number(s.trim()) : NaN);

/** The field as typed; checked by the contract's RetentionWeeks once converted. */
const RetentionForm = z.object({ RetentionWeeks: z.string() }).superRefine((v, ctx) => {
  const checked = RetentionWeeks.safeParse(whole(v.RetentionWeeks));
  if (!checked.success)
    ctx.addIssue({ code: 'custom', path: ['RetentionWeeks'], message: checked.error.issues[0]!.message });
});
type RetentionForm = z.infer<typeof RetentionForm>;

/**
 * After how many weeks plates in plate checks and expired permits are anonymised (the retention
 * job, docs/permits.md#retention): every role reads it, the owner changes it.
 */
export function RetentionSetting({
  operatorId,
  settings,
  changes,
}: {
  operatorId: number;
  settings: OperatorSettings;
  changes: boolean;
}) {
  const { t } = useTranslation();
  const change = useChangeSettings(operatorId);
  const form = useSchemaForm<RetentionForm>(RetentionForm, { RetentionWeeks: String(settings.RetentionWeeks) });
  const submit = form.handleSubmit(async (v) => {
    try {
      await change.mutateAsync({ ShowPlates: settings.ShowPlates, RetentionWeeks: whole(v.RetentionWeeks) });
      toast.success(t('Setting saved'));
    } catch (err) {
      showFormError(err, form.setError, ['RetentionWeeks']);
    }
  });
  return (
    <form className="mt-3 flex flex-col gap-3" onSubmit={(e) => void submit(e)} noValidate>
      <TextField
        label={t('Keep plates for (weeks)')}
        inputMode="numeric"
        disabled={!changes}
        hint={t(
          'Plates in plate checks and in permits expired longer than this are anonymised. 1 to 520 weeks; 13 as the Dutch national register keeps them.',
        )}
        {...form.field('RetentionWeeks')}
      />
      {changes && (
        <Button type="submit" loading={form.submitting} className="self-start">
          {t('Save')}
        </Button>
      )}
    </form>
  );
}

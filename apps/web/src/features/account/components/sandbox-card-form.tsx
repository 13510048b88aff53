import { useTranslation } from '../../../lib/i18n.ts';
import { z } from 'zod';
import { WALLET_MESSAGES, type CardSummary } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { showFormError } from '../../../lib/form-errors.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { useAddCard } from '../api/wallet.ts';
import { tokenizeSandboxCard } from '../../../lib/sandbox-tokens.ts';

const Form = z.object({
  Number: z
    .string()
    .trim()
    .min(1, WALLET_MESSAGES.cardNumberRequired)
    .regex(/^[\d ]{12,23}$/, WALLET_MESSAGES.cardNumberInvalid),
  Expiry: z
    .string()
    .trim()
    .regex(/^(0[1-9]|1[0-2])\s*\/\s*(\d{2})$/, WALLET_MESSAGES.expiryInvalid),
  Cvc: z
    .string()
    .trim()
    .regex(/^\d{3,4}$/, WALLET_MESSAGES.cvcInvalid),
});
type FormValues = z.infer<typeof Form>;

/**
 * The sandbox's card form: the number, expiry and CVC go to the sandbox's own tokenizer, never
 * to our API, which receives only the token (as with Stripe Elements).
 */
export function SandboxCardForm({
  makeDefault,
  onAdded,
}: {
  makeDefault: boolean;
  onAdded: (card: CardSummary) => void | Promise<void>;
}) {
  const { t } = useTranslation();
  const add = useAddCard();
  const form = useSchemaForm<FormValues>(Form, { Number: '', Expiry: '', Cvc: '' });

  const submit = async (v: FormValues) => {
    const [mm, yy] = v.Expiry.split('/').map((s) => s.trim());
    try {
      const tok = await tokenizeSandboxCard({
        Number: v.Number,
        ExpMonth: Number(mm),
        ExpYear: 2000 + Number(yy),
        Cvc: v.Cvc,
      });
      const card = await add.mutateAsync({ Token: tok.Token, MakeDefault: makeDefault });
      await onAdded(card);
    } catch (err) {
      showFormError(err, form.setError, {
        Number: 'Number',
        ExpMonth: 'Expiry',
        ExpYear: 'Expiry',
        Cvc: 'Cvc',
        Token: 'Number',
      });
    }
  };

  return (
    <form
      noValidate
      onSubmit={form.handleSubmit(submit)}
      className="flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm"
    >
      <TextField
        label={t('Card number')}
        inputMode="numeric"
        autoComplete="cc-number"
        placeholder="4242 4242 4242 4242"
        {...form.register('Number')}
        error={form.formState.errors.Number?.message}
      />
      <div className="flex gap-3">
        <div className="flex-1">
          <TextField
            label={t('Expiry (MM/YY)')}
            inputMode="numeric"
            autoComplete="cc-exp"
            placeholder="12/30"
            {...form.register('Expiry')}
            error={form.formState.errors.Expiry?.message}
          />
        </div>
        <div className="w-28">
          <TextField
            label={t('CVC')}
            inputMode="numeric"
            autoComplete="cc-csc"
            placeholder="123"
            {...form.register('Cvc')}
            error={form.formState.errors.Cvc?.message}
          />
        </div>
      </div>
      <p className="text-xs text-slate-500">
        {t('Test mode: use 4242 4242 4242 4242 with any future date and any CVC. 4000 0000 0000 0002 is declined.')}
      </p>
      <Button type="submit" block loading={form.formState.isSubmitting}>
        {t('Save card')}
      </Button>
    </form>
  );
}

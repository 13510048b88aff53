import { useId } from 'react';
import { useWatch } from 'react-hook-form';
import { z } from 'zod';
import { useTranslation } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.tsx';
import { amountToCents, type ParkingOptions } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { useMoney } from '../../../lib/money.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { useUpdateParkingOptions } from '../api/parking-options.ts';

/** The contract's range for MaxPaymentAmount, in cents. */
const MIN_CENTS = 100;
const MAX_CENTS = 50_000;
const AmountForm = z.object({
  amount: z
    .string()
    .transform((v) => amountToCents(v))
    .refine((c) => c !== null && c >= MIN_CENTS && c <= MAX_CENTS, 'Enter an amount from 1.00 to 500.00'),
});

/** The amount behind the Max Payment Amount switch, editable while the switch is on. */
export function MaxPaymentField({ options }: { options: ParkingOptions }) {
  const { t } = useTranslation();
  const money = useMoney();
  const id = useId();
  const saved = options.MaxPaymentAmount.toFixed(2);
  const form = useSchemaForm<z.input<typeof AmountForm>, z.output<typeof AmountForm>>(AmountForm, { amount: saved });
  const value = useWatch({ control: form.control, name: 'amount' });
  const error = form.formState.errors.amount?.message;
  const typed = form.register('amount');
  const update = useUpdateParkingOptions();

  const submit = form.handleSubmit(({ amount }) => {
    update.mutate(
      { MaxPaymentAmount: (amount ?? 0) / 100 },
      {
        onSuccess: (o) => {
          form.setValue('amount', o.MaxPaymentAmount.toFixed(2));
          toast.success(t('Max payment amount saved'));
        },
      },
    );
  });

  return (
    <form noValidate onSubmit={(e) => void submit(e)} className="mb-2 flex flex-col gap-1 rounded-xl bg-slate-50 p-3">
      <label htmlFor={id} className="text-xs font-medium text-slate-700">
        {t('Maximum per session')}
      </label>
      <div className="flex gap-2">
        <div className="relative flex-1">
          <span
            className="pointer-events-none absolute inset-y-0 inset-s-3 grid place-items-center text-slate-500"
            aria-hidden
          >
            {money.symbol}
          </span>
          <input
            id={id}
            inputMode="decimal"
            {...typed}
            onChange={(e) => {
              e.target.value = e.target.value.replace(/[^\d.]/g, '');
              void typed.onChange(e);
            }}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className="min-h-11 w-full rounded-xl border border-slate-300 bg-white py-2 pe-3 ps-7 text-base aria-[invalid=true]:border-red-500"
          />
        </div>
        <Button type="submit" variant="secondary" loading={update.isPending} disabled={value === saved}>
          {t('Save')}
        </Button>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs font-medium text-red-600">
          {t(error)}
        </p>
      )}
    </form>
  );
}

import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { toast } from 'sonner';
import { amountToCents, type ParkingOptions } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { useUpdateParkingOptions } from '../api/parking-options.ts';

/** The contract's range for MaxPaymentAmount, in cents. */
const MIN_CENTS = 100;
const MAX_CENTS = 50_000;

/** The amount behind the Max Payment Amount switch, editable while the switch is on. */
export function MaxPaymentField({ options }: { options: ParkingOptions }) {
  const { t } = useTranslation();
  const id = useId();
  const saved = options.MaxPaymentAmount.toFixed(2);
  const [value, setValue] = useState(saved);
  const [error, setError] = useState<string | null>(null);
  const update = useUpdateParkingOptions();

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const cents = amountToCents(value);
    if (cents === null || cents < MIN_CENTS || cents > MAX_CENTS) {
      setError(t('Enter an amount from 1.00 to 500.00'));
      return;
    }
    setError(null);
    update.mutate(
      { MaxPaymentAmount: cents / 100 },
      {
        onSuccess: (o) => {
          setValue(o.MaxPaymentAmount.toFixed(2));
          toast.success(t('Max payment amount saved'));
        },
      },
    );
  };

  return (
    <form noValidate onSubmit={submit} className="mb-2 flex flex-col gap-1 rounded-xl bg-slate-50 p-3">
      <label htmlFor={id} className="text-xs font-medium text-slate-700">
        {t('Maximum per session')}
      </label>
      <div className="flex gap-2">
        <div className="relative flex-1">
          <span className="pointer-events-none absolute inset-y-0 left-3 grid place-items-center text-slate-500" aria-hidden>
            $
          </span>
          <input
            id={id}
            inputMode="decimal"
            value={value}
            onChange={(e) => setValue(e.target.value.replace(/[^\d.]/g, ''))}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${id}-error` : undefined}
            className="min-h-11 w-full rounded-xl border border-slate-300 bg-white py-2 pr-3 pl-7 text-base aria-[invalid=true]:border-red-500"
          />
        </div>
        <Button type="submit" variant="secondary" loading={update.isPending} disabled={value === saved}>
          {t('Save')}
        </Button>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs font-medium text-red-600">
          {error}
        </p>
      )}
    </form>
  );
}

import { useEffect, useMemo, useState } from 'react';
import { useWatch, type Path } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import type { z } from 'zod';
import { CallBackRequest, type CallBack, type SupportHours } from '@parkit/contract';
import { formatDateLong } from '../../../lib/dates.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { FormSelect, FormText } from '../../../components/ui/form-fields.tsx';
import { paths } from '../../../config/paths.ts';
import { refuseNonDigits } from '../../../components/ui/digit-fields.tsx';
import { showFormError } from '../../../lib/form-errors.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { useRequestCallBack } from '../api/request-callback.ts';
import { addDays, slotLabel, slotsFor, zonedNow } from '../lib/slots.ts';

type Input = z.input<typeof CallBackRequest>;
type Output = z.output<typeof CallBackRequest>;
const FIELDS: ReadonlyArray<Path<Input>> = ['Phone', 'Date', 'Time'];

/** Request call back (docs/product.md#screens): phone, date, time, 'Request Call Back' and its dialog. */
export function RequestCallForm({ hours, phone }: { hours: SupportHours; phone: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const request = useRequestCallBack();
  const [booked, setBooked] = useState<CallBack | null>(null);
  const today = zonedNow(hours.TimeZone).date;
  const { control, handleSubmit, setError, setValue, formState } = useSchemaForm<Input, Output>(CallBackRequest, {
    Phone: phone,
    Date: '',
    Time: '',
  });
  const [date, time] = useWatch({ control, name: ['Date', 'Time'] });
  const slots = useMemo(() => (date ? slotsFor(date, hours) : []), [date, hours]);
  // Another day has other slots: a time it does not offer is cleared.
  useEffect(() => {
    if (time && !slots.includes(time)) setValue('Time', '');
  }, [time, slots, setValue]);

  const onSubmit = handleSubmit(async (values) => {
    try {
      setBooked(await request.mutateAsync(values));
    } catch (err) {
      showFormError(err, setError, FIELDS);
    }
  });

  return (
    <>
      <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4">
        <FormText
          control={control}
          name="Phone"
          label={t('Phone')}
          type="tel"
          inputMode="numeric"
          autoComplete="tel-national"
          onKeyDown={refuseNonDigits}
        />
        <FormText
          control={control}
          name="Date"
          label={t('Date')}
          type="date"
          min={today}
          max={addDays(today, hours.MaxDays)}
        />
        <FormSelect
          control={control}
          name="Time"
          label={t('Time')}
          placeholder={date && slots.length === 0 ? t('No times left on this day') : t('Select Time')}
          options={slots.map((s) => ({ value: s, label: slotLabel(s) }))}
        />
        <p className="text-xs text-slate-500">
          {t('Support calls between {{open}} and {{close}} ({{zone}}).', {
            open: slotLabel(hours.Open),
            close: slotLabel(hours.Close),
            zone: hours.TimeZone,
          })}
        </p>
        <Button type="submit" id="request-call-back" block loading={formState.isSubmitting} className="mt-2">
          {t('Request Call Back')}
        </Button>
      </form>
      <Dialog
        open={booked !== null}
        onOpenChange={(open) => {
          if (!open) void navigate(paths.supportPage);
        }}
        title={t('Call back Request Received')}
        description={
          <>
            {t('You will receive a call at the scheduled time.')}
            {booked && (
              <span className="mt-1 block font-medium text-slate-900">{`${formatDateLong(booked.Date)}, ${slotLabel(booked.Time)}`}</span>
            )}
          </>
        }
      >
        <Button block onClick={() => void navigate(paths.supportPage)}>
          {t('Ok, Thank You')}
        </Button>
      </Dialog>
    </>
  );
}

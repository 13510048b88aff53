import { useState } from 'react';
import {
  useController,
  useFieldArray,
  type Control,
  type FieldPath,
  type UseFormRegisterReturn,
} from 'react-hook-form';
import { CreatePolicyRequest, type PolicyBodyInput } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { toast } from '../../../lib/toasts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField, controlClass } from '../../../components/ui/field.tsx';
import { useCreatePolicy, usePublishVersion } from '../api/prices.ts';
import { PricePreviewBox } from './price-preview.tsx';
import { CentsInput, ClassesField } from './policy-classes-field.tsx';
import type { PolicyForm } from '../lib/policy-form.ts';

type Path = FieldPath<PolicyForm>;
type Step = { FromMinute: number; CentsPerHour: number };

/** A new policy starts as one all-week span at $2 an hour, 2 hours at most. */
export const NEW_POLICY: PolicyBodyInput = {
  Spans: [{ Id: 'span-1', Name: 'Paid hours', Rate: [{ FromMinute: 0, CentsPerHour: 200 }] }],
  Holidays: [],
  MaxStayMinutes: 120,
};

const optional = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : v);
const optionalNumber = (v: unknown) => (v === '' || v === null || v === undefined ? undefined : Number(v));
const localInstant = (v: unknown) => (typeof v === 'string' && v !== '' ? new Date(v).toISOString() : undefined);

/**
 * The policy editor: a policy's name, its spans (days, times, dates, holidays), each span's rate
 * per hour or progressive (the first hour, each further hour), billing increment, free minutes,
 * fees, stays and user classes; the live preview beside it; publish with an effective time. A new
 * policy is created (version 1); a saved one gets its next version (docs/pricing.md).
 */
export function PolicyEditor({
  operatorId,
  policyId,
  name,
  body,
  onSaved,
}: {
  operatorId: number;
  policyId: number | null;
  name: string;
  body: PolicyBodyInput;
  onSaved: (policyId: number) => void;
}) {
  const { t } = useTranslation();
  const create = useCreatePolicy(operatorId);
  const publish = usePublishVersion(operatorId);
  const form = useSchemaForm<PolicyForm>(CreatePolicyRequest, { Name: name, Body: body });
  const spans = useFieldArray({ control: form.control, name: 'Body.Spans' });
  const [nextId, setNextId] = useState(body.Spans.length + 1);
  const submit = form.handleSubmit(async (v) => {
    try {
      const saved =
        policyId === null
          ? await create.mutateAsync(v)
          : await publish.mutateAsync({
              policyId,
              body: { Body: v.Body, ...(v.EffectiveFrom ? { EffectiveFrom: v.EffectiveFrom } : {}) },
            });
      toast.success(t('Version {{version}} published', { version: saved.Version }));
      onSaved(saved.PolicyId);
    } catch (err) {
      showFormError(err, form.setError, ['Name', 'EffectiveFrom', 'Body.MaxStayMinutes'], {
        toast: (e) => e.message,
      });
    }
  });
  const control = form.control;
  return (
    <div className="grid gap-4 xl:grid-cols-[2fr_1fr]">
      <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)} noValidate aria-label={t('Policy editor')}>
        <div className="grid gap-3 md:grid-cols-2">
          <TextField label={t('Policy name')} {...form.field('Name')} readOnly={policyId !== null} />
          <NumberField control={control} name="Body.MaxStayMinutes" label={t('Longest stay (minutes)')} />
          <HolidaysField control={control} />
        </div>
        {spans.fields.map((f, i) => (
          <fieldset key={f.id} className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
            <legend className="px-1 text-lg font-bold text-slate-900">{t('Time span {{n}}', { n: i + 1 })}</legend>
            <SpanFields
              control={control}
              register={form.register}
              index={i}
              field={form.field}
              operatorId={operatorId}
            />
            {spans.fields.length > 1 && (
              <Button variant="ghost" size="sm" onClick={() => spans.remove(i)}>
                {t('Remove this time span')}
              </Button>
            )}
          </fieldset>
        ))}
        <Button
          variant="secondary"
          onClick={() => {
            spans.append({ Id: `span-${nextId}`, Name: '', Rate: [{ FromMinute: 0, CentsPerHour: 200 }] });
            setNextId(nextId + 1);
          }}
        >
          {t('Add a time span')}
        </Button>
        <p className="text-sm text-slate-600">
          {t('A minute belongs to the first time span that holds it; a minute in none is free.')}
        </p>
        <div className="flex flex-wrap items-end gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
          <div className="min-w-64 flex-1">
            <TextField
              type="datetime-local"
              label={t('In force from')}
              hint={t('Empty: now. Sessions started before keep their price.')}
              {...form.register('EffectiveFrom', { setValueAs: localInstant })}
              error={form.formState.errors.EffectiveFrom?.message}
            />
          </div>
          <Button type="submit" loading={form.submitting}>
            {policyId === null ? t('Create and publish') : t('Publish new version')}
          </Button>
        </div>
      </form>
      <PricePreviewBox operatorId={operatorId} control={control} />
    </div>
  );
}

/** A form value typed as text that is kept as something else: the field's binding, its first value, its setter. */
function useTextBinding(control: Control<PolicyForm>, name: Path) {
  const { field, fieldState } = useController({ control, name });
  return {
    bound: { ref: field.ref, name: field.name, onBlur: field.onBlur, error: fieldState.error?.message },
    initial: field.value as unknown,
    onChange: field.onChange as (v: unknown) => void,
  };
}

type FieldFn = (name: Path) => UseFormRegisterReturn & { error: string | undefined };

function SpanFields({
  control,
  register,
  index: i,
  field,
  operatorId,
}: {
  control: Control<PolicyForm>;
  register: (name: Path, opts?: object) => UseFormRegisterReturn;
  index: number;
  field: FieldFn;
  operatorId: number;
}) {
  const { t } = useTranslation();
  const at = (k: string) => `Body.Spans.${i}.${k}` as Path;
  const err = (k: string) => field(at(k)).error;
  return (
    <div className="flex flex-col gap-3">
      <div className="grid gap-3 md:grid-cols-3">
        <TextField label={t('Name')} {...field(at('Name'))} />
        <TextField
          type="time"
          label={t('From')}
          hint={t('Empty: midnight')}
          {...register(at('From'), { setValueAs: optional })}
          error={err('From')}
        />
        <TextField
          type="time"
          label={t('Until')}
          hint={t('Empty: midnight at the end of the day')}
          {...register(at('Until'), { setValueAs: optional })}
          error={err('Until')}
        />
      </div>
      <DaysField control={control} name={at('Days')} />
      <div className="grid gap-3 md:grid-cols-3">
        <TextField
          type="date"
          label={t('First date')}
          {...register(at('StartDate'), { setValueAs: optional })}
          error={err('StartDate')}
        />
        <TextField
          type="date"
          label={t('Last date')}
          {...register(at('EndDate'), { setValueAs: optional })}
          error={err('EndDate')}
        />
        <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
          {t('Holidays')}
          <select className={controlClass} {...register(at('Holidays'), { setValueAs: optional })}>
            <option value="">{t('Holidays or not')}</option>
            <option value="only">{t('Only on holidays')}</option>
            <option value="except">{t('Never on holidays')}</option>
          </select>
        </label>
      </div>
      <RateField control={control} name={at('Rate')} label={t('Rate')} />
      <div className="grid gap-3 md:grid-cols-3">
        <NumberField control={control} name={at('IncrementMinutes')} label={t('Billing increment (minutes)')} />
        <NumberField control={control} name={at('FreeMinutes')} label={t('Free minutes')} />
        <NumberField control={control} name={at('MaxStayMinutes')} label={t('Longest stay in this span (minutes)')} />
        <NumberField control={control} name={at('NoReturnMinutes')} label={t('No return for (minutes)')} />
        <NumberField control={control} name={at('MinSessionCents')} label={t('Minimum per session')} money />
        <NumberField control={control} name={at('MaxSessionCents')} label={t('Maximum per session')} money />
        <NumberField control={control} name={at('MaxDayCents')} label={t('Maximum per day')} money />
      </div>
      <ClassesField control={control} name={at('UserClasses')} operatorId={operatorId} />
    </div>
  );
}

/** A number, or a dollar amount kept in cents (`money`); empty is "none". */
function NumberField({
  control,
  name,
  label,
  money = false,
}: {
  control: Control<PolicyForm>;
  name: Path;
  label: string;
  money?: boolean;
}) {
  const { bound, initial, onChange } = useTextBinding(control, name);
  const shown = (v: unknown) => (typeof v === 'number' ? String(money ? v / 100 : v) : '');
  const [text, setText] = useState(() => shown(initial));
  return (
    <TextField
      {...bound}
      label={label}
      inputMode="decimal"
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        const n = optionalNumber(e.target.value.trim());
        onChange(n === undefined ? undefined : money ? Math.round(n * 100) : n);
      }}
    />
  );
}

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;

/** Weekdays as checkboxes; none ticked: every day. */
function DaysField({ control, name }: { control: Control<PolicyForm>; name: Path }) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const days = (field.value as number[] | undefined) ?? [];
  const label = [t('Mon'), t('Tue'), t('Wed'), t('Thu'), t('Fri'), t('Sat'), t('Sun')];
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-700">{t('Days (none ticked: every day)')}</legend>
      <div className="mt-1 flex flex-wrap gap-2">
        {WEEKDAYS.map((d) => (
          <label key={d} className="flex min-h-11 items-center gap-2 rounded-lg px-2 ring-1 ring-slate-300">
            <input
              type="checkbox"
              checked={days.includes(d)}
              onChange={(e) => {
                const next = e.target.checked ? [...days, d].sort() : days.filter((x) => x !== d);
                field.onChange(next.length === 0 ? undefined : next);
              }}
            />
            {label[d - 1]}
          </label>
        ))}
      </div>
      {fieldState.error?.message && (
        <p role="alert" className="text-xs font-medium text-red-600">
          {t(fieldState.error.message)}
        </p>
      )}
    </fieldset>
  );
}

/** Per hour (one rate), or progressive: the first hour, then each further hour. */
function RateField({ control, name, label }: { control: Control<PolicyForm>; name: Path; label: string }) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const steps = (field.value as Step[] | undefined) ?? [];
  const progressive = steps.length > 1;
  const set = (first: number, further: number | null) =>
    field.onChange(
      further === null
        ? [{ FromMinute: 0, CentsPerHour: first }]
        : [
            { FromMinute: 0, CentsPerHour: first },
            { FromMinute: 60, CentsPerHour: further },
          ],
    );
  const first = steps[0]?.CentsPerHour ?? 0;
  const further = steps[1]?.CentsPerHour ?? null;
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium text-slate-700">{label}</legend>
      <label className="flex min-h-11 items-center gap-2 text-sm">
        <input type="checkbox" checked={progressive} onChange={(e) => set(first, e.target.checked ? first : null)} />
        {t('Progressive: the first hour at one rate, each further hour at another')}
      </label>
      <div className="grid gap-3 md:grid-cols-2">
        <CentsInput
          label={progressive ? t('First hour, per hour') : t('Per hour')}
          cents={first}
          onCents={(c) => set(c, progressive ? further : null)}
        />
        {progressive && (
          <CentsInput label={t('Each further hour, per hour')} cents={further ?? 0} onCents={(c) => set(first, c)} />
        )}
      </div>
      {fieldState.error?.message && (
        <p role="alert" className="text-xs font-medium text-red-600">
          {t(fieldState.error.message)}
        </p>
      )}
    </fieldset>
  );
}

/** The policy's holidays: local dates, separated by commas or spaces. */
function HolidaysField({ control }: { control: Control<PolicyForm> }) {
  const { t } = useTranslation();
  const { bound, initial, onChange } = useTextBinding(control, 'Body.Holidays');
  const [text, setText] = useState(() => ((initial as string[] | undefined) ?? []).join(', '));
  return (
    <TextField
      {...bound}
      label={t('Holidays (YYYY-MM-DD, separated by commas)')}
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onChange(e.target.value.split(/[\s,]+/).filter(Boolean));
      }}
    />
  );
}

import { useState } from 'react';
import { useController, type Control, type FieldPath } from 'react-hook-form';
import { USER_CLASSES, userClassKey, type UserClassPrice } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { TextField, controlClass } from '../../../components/ui/field.tsx';
import { usePermitTypes } from '../api/permits.ts';
import type { PolicyForm } from '../lib/policy-form.ts';

type Who = Pick<UserClassPrice, 'UserClass' | 'PermitTypeId'>;

/** Dollars typed, cents kept (NaN while the text is no number, which the schema refuses). */
export function CentsInput({ label, cents, onCents }: { label: string; cents: number; onCents: (c: number) => void }) {
  const [text, setText] = useState(String(cents / 100));
  return (
    <TextField
      label={label}
      inputMode="decimal"
      value={text}
      onChange={(e) => {
        setText(e.target.value);
        onCents(e.target.value.trim() === '' ? Number.NaN : Math.round(Number(e.target.value) * 100));
      }}
    />
  );
}

/**
 * Who a span prices apart (docs/pricing.md#permit-holders): permit holders, disabled badges and EVs,
 * then each of the operator's permit types (a type's rule wins over "Permit holders" for its
 * holders). Each pays the span's rate, is exempt, or pays a rate of its own.
 */
export function ClassesField({
  control,
  name,
  operatorId,
}: {
  control: Control<PolicyForm>;
  name: FieldPath<PolicyForm>;
  operatorId: number;
}) {
  const { t } = useTranslation();
  const { field } = useController({ control, name });
  const classes = (field.value as UserClassPrice[] | undefined) ?? [];
  const types = usePermitTypes(operatorId);
  const labels = { permit: t('Permit holders'), disabled: t('Disabled badge'), ev: t('Electric vehicles') };
  const put = (who: Who, next: UserClassPrice | null) =>
    field.onChange([...classes.filter((x) => userClassKey(x) !== userClassKey(who)), ...(next ? [next] : [])]);
  const live = (types.data ?? []).filter((ty) => !ty.Retired || classes.some((c) => c.PermitTypeId === ty.Id));
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="text-sm font-medium text-slate-700">{t('User classes')}</legend>
      <div className="grid gap-3 md:grid-cols-3">
        {USER_CLASSES.map((c) => (
          <ClassRow key={c} who={{ UserClass: c }} label={labels[c]} classes={classes} put={put} />
        ))}
      </div>
      {live.length > 0 && (
        <>
          <p className="text-sm text-slate-600">{t('Permit types (a type’s choice wins over Permit holders)')}</p>
          <div className="grid gap-3 md:grid-cols-3">
            {live.map((ty) => (
              <ClassRow key={ty.Id} who={{ PermitTypeId: ty.Id }} label={ty.Name} classes={classes} put={put} />
            ))}
          </div>
        </>
      )}
    </fieldset>
  );
}

function ClassRow({
  who,
  label,
  classes,
  put,
}: {
  who: Who;
  label: string;
  classes: UserClassPrice[];
  put: (who: Who, next: UserClassPrice | null) => void;
}) {
  const { t } = useTranslation();
  const cur = classes.find((x) => userClassKey(x) === userClassKey(who));
  const mode = !cur ? 'same' : cur.Exempt ? 'exempt' : 'own';
  return (
    <div className="flex flex-col gap-2">
      <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
        {label}
        <select
          className={controlClass}
          value={mode}
          onChange={(e) =>
            put(
              who,
              e.target.value === 'same'
                ? null
                : e.target.value === 'exempt'
                  ? { ...who, Exempt: true }
                  : { ...who, Exempt: false, Rate: [{ FromMinute: 0, CentsPerHour: 100 }] },
            )
          }
        >
          <option value="same">{t('Pays the rate')}</option>
          <option value="exempt">{t('Exempt')}</option>
          <option value="own">{t('Own rate')}</option>
        </select>
      </label>
      {cur && !cur.Exempt && (
        <CentsInput
          label={t('{{who}}, per hour', { who: label })}
          cents={cur.Rate?.[0]?.CentsPerHour ?? 0}
          onCents={(cents) => put(who, { ...who, Exempt: false, Rate: [{ FromMinute: 0, CentsPerHour: cents }] })}
        />
      )}
    </div>
  );
}

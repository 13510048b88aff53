import { useId, useState } from 'react';
import { z } from 'zod';
import type { PermitType } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { useMoney } from '../../../lib/money.ts';
import { toastFailure } from '../../../lib/form-errors.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { toast } from '../../../lib/toasts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { findZone, useApplyPermit, usePermitTypes } from '../api/permits.ts';

/** The plates typed in one field, split at commas or spaces. */
const splitPlates = (text: string) =>
  text
    .split(/[,;\s]+/)
    .map((p) => p.trim().toUpperCase())
    .filter((p) => p.length > 0);

function TypeChoice({ type: ty, chosen, onChoose }: { type: PermitType; chosen: boolean; onChoose: () => void }) {
  const { t } = useTranslation();
  const money = useMoney();
  return (
    <li>
      <label className="flex gap-2 rounded-xl p-2 ring-1 ring-slate-200 has-[:checked]:ring-slate-900">
        <input type="radio" name="permit-type" checked={chosen} onChange={onChoose} className="mt-1" />
        <span className="flex flex-col text-sm">
          <span className="font-semibold break-words text-slate-900">{ty.Name}</span>
          <span className="text-slate-600">
            {money(ty.PriceCents / 100)} · {t('{{count}} months', { count: ty.ValidMonths })} ·{' '}
            {t('Up to {{count}} plates', { count: ty.MaxPlates })}
          </span>
          {ty.ProofRequired && <span className="text-slate-600">{t('A proof of address is required')}</span>}
        </span>
      </label>
    </li>
  );
}

const ZoneFields = z.object({ number: z.string().trim().min(1, 'Enter a zone number').max(20, 'Zone not found') });
type ZoneFields = z.infer<typeof ZoneFields>;

/** The application: a zone by its number, then one of its permit types. */
export function ApplyForm({ plates, onDone }: { plates: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const [zoneId, setZoneId] = useState<number | null>(null);
  const form = useSchemaForm<ZoneFields>(ZoneFields, { number: '' });
  const lookUp = form.handleSubmit(async ({ number }) => {
    try {
      const zone = await findZone(number);
      if (!zone) form.setError('number', { message: 'Zone not found' });
      setZoneId(zone?.ZoneId ?? null);
    } catch (err) {
      toastFailure(err);
    }
  });
  return (
    <section className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 className="font-semibold text-slate-900">{t('Apply for a permit')}</h2>
      <form className="flex flex-col gap-2" onSubmit={(e) => void lookUp(e)} noValidate>
        <TextField label={t('Zone number')} {...form.field('number')} inputMode="numeric" maxLength={20} />
        <div>
          <Button type="submit" variant="secondary" loading={form.submitting}>
            {t('Find the permits of this zone')}
          </Button>
        </div>
      </form>
      {zoneId !== null && <TypeForm key={zoneId} zoneId={zoneId} plates={plates} onDone={onDone} />}
      {zoneId === null && (
        <div>
          <Button type="button" variant="ghost" onClick={onDone}>
            {t('Cancel')}
          </Button>
        </div>
      )}
    </section>
  );
}

const TypeFields = z.object({
  typeId: z.string().min(1, 'Choose a permit type'),
  plates: z.string().max(220, 'This permit takes fewer plates'),
  proof: z.custom<File | null>(),
});
type TypeFields = z.infer<typeof TypeFields>;

function TypeForm({ zoneId, plates, onDone }: { zoneId: number; plates: string[]; onDone: () => void }) {
  const { t } = useTranslation();
  const types = usePermitTypes(zoneId);
  const apply = useApplyPermit();
  const form = useSchemaForm<TypeFields>(TypeFields, { typeId: '', plates: plates.join(', '), proof: null });
  const typeId = form.watch('typeId');
  const type = types.data?.find((x) => String(x.Id) === typeId) ?? null;
  const choose = (ty: PermitType) => {
    form.setValue('typeId', String(ty.Id));
    // Prefilled with the driver's vehicles, up to the type's limit, until the driver types.
    if (!form.getFieldState('plates').isDirty) form.setValue('plates', plates.slice(0, ty.MaxPlates).join(', '));
  };
  const submit = form.handleSubmit(async (v) => {
    if (!type) return;
    const list = splitPlates(v.plates);
    if (list.length === 0) return form.setError('plates', { message: 'Enter a plate' });
    if (list.length > type.MaxPlates) return form.setError('plates', { message: 'This permit takes fewer plates' });
    if (type.ProofRequired && !v.proof)
      return form.setError('proof', { message: 'Attach a proof of address (PDF, PNG or JPEG)' });
    try {
      await apply.mutateAsync({ typeId: type.Id, plates: list, proof: type.ProofRequired ? v.proof : null });
      toast.success(t('Your application was sent'));
      onDone();
    } catch (err) {
      toastFailure(err);
    }
  });
  const proofError = form.formState.errors.proof?.message;
  const proofId = useId();
  return (
    <Loaded query={types} compact skeleton={<Skeleton rows={2} />} failed={t('Permit types could not be loaded.')}>
      {(list) =>
        list.length === 0 ? (
          <p className="text-slate-600">{t('This zone has no permits.')}</p>
        ) : (
          <form
            className="flex flex-col gap-3"
            onSubmit={(e) => void submit(e)}
            noValidate
            aria-label={t('Apply for a permit')}
          >
            <fieldset className="flex flex-col gap-2">
              <legend className="mb-1 text-sm font-medium text-slate-700">{t('Permit type')}</legend>
              <ul className="flex flex-col gap-2">
                {list.map((ty) => (
                  <TypeChoice key={ty.Id} type={ty} chosen={String(ty.Id) === typeId} onChoose={() => choose(ty)} />
                ))}
              </ul>
            </fieldset>
            {type && (
              <>
                <TextField
                  label={t('Plates, separated by commas')}
                  hint={t('Up to {{count}} plates', { count: type.MaxPlates })}
                  {...form.field('plates')}
                  maxLength={220}
                />
                {type.ProofRequired && (
                  <div className="flex flex-col gap-1 text-sm">
                    <label htmlFor={proofId} className="font-medium text-slate-700">
                      {t('Proof of address (PDF, PNG or JPEG)')}
                    </label>
                    <input
                      id={proofId}
                      type="file"
                      accept="application/pdf,image/png,image/jpeg"
                      aria-invalid={proofError ? true : undefined}
                      aria-describedby={proofError ? `${proofId}-error` : undefined}
                      onChange={(e) => form.setValue('proof', e.target.files?.[0] ?? null)}
                    />
                    {proofError && (
                      <p id={`${proofId}-error`} role="alert" className="break-words text-red-700">
                        {t(proofError)}
                      </p>
                    )}
                  </div>
                )}
              </>
            )}
            <div className="flex flex-wrap gap-2">
              <Button type="submit" loading={form.submitting} disabled={!type}>
                {t('Send the application')}
              </Button>
              <Button type="button" variant="ghost" onClick={onDone}>
                {t('Cancel')}
              </Button>
            </div>
          </form>
        )
      }
    </Loaded>
  );
}

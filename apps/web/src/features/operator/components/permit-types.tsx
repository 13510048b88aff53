import { useState } from 'react';
import { z } from 'zod';
import { operatorCan, PERMIT_KIND_VALUES, PermitTypeInput, type PermitType } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { useMoney } from '../../../lib/money.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { showFormError, toastFailure } from '../../../lib/form-errors.ts';
import { toast } from '../../../lib/toasts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useZoneChoices } from '../api/sessions.ts';
import { usePermitTypeChanges, usePermitTypes } from '../api/permits.ts';
import { useMembership } from './console-shell.tsx';
import { ZoneChecklist } from './zone-picker.tsx';
import { kindLabel, type PermitKind } from './permit-labels.ts';

/** The form's fields as typed; checked by the contract's PermitTypeInput once converted. */
const TypeForm = z
  .object({
    Kind: z.string(),
    Name: z.string(),
    ZoneIds: z.array(z.number()),
    ValidMonths: z.string(),
    Price: z.string(),
    ProofRequired: z.boolean(),
    MaxPlates: z.string(),
    VisitorDaysPerMonth: z.string(),
  })
  .superRefine((v, ctx) => {
    if (!/^\d+(\.\d{1,2})?$/.test(v.Price.trim()))
      ctx.addIssue({ code: 'custom', path: ['Price'], message: 'Enter an amount such as 25.00' });
    const checked = PermitTypeInput.safeParse(bodyOf(v));
    if (checked.success) return;
    for (const issue of checked.error.issues) {
      const field = issue.path[0] === 'PriceCents' ? 'Price' : issue.path[0];
      ctx.addIssue({ code: 'custom', path: [String(field)], message: issue.message });
    }
  });
type TypeForm = z.infer<typeof TypeForm>;

const whole = (s: string) => (/^\d{1,9}$/.test(s.trim()) ? Number(s.trim()) : NaN);
const bodyOf = (v: TypeForm): PermitTypeInput => ({
  Kind: v.Kind as PermitKind,
  Name: v.Name,
  ZoneIds: v.ZoneIds,
  ValidMonths: whole(v.ValidMonths),
  PriceCents: Math.round(Number(v.Price.trim()) * 100),
  ProofRequired: v.ProofRequired,
  MaxPlates: whole(v.MaxPlates),
  VisitorDaysPerMonth: whole(v.VisitorDaysPerMonth),
});
const EMPTY: TypeForm = {
  Kind: 'resident',
  Name: '',
  ZoneIds: [],
  ValidMonths: '12',
  Price: '0',
  ProofRequired: true,
  MaxPlates: '1',
  VisitorDaysPerMonth: '0',
};
const formOf = (p: PermitType): TypeForm => ({
  Kind: p.Kind,
  Name: p.Name,
  ZoneIds: p.ZoneIds,
  ValidMonths: String(p.ValidMonths),
  Price: (p.PriceCents / 100).toFixed(2),
  ProofRequired: p.ProofRequired,
  MaxPlates: String(p.MaxPlates),
  VisitorDaysPerMonth: String(p.VisitorDaysPerMonth),
});
/** Server field -> form field. */
const SERVER_FIELDS = {
  Kind: 'Kind',
  Name: 'Name',
  ZoneIds: 'ZoneIds',
  ValidMonths: 'ValidMonths',
  PriceCents: 'Price',
  ProofRequired: 'ProofRequired',
  MaxPlates: 'MaxPlates',
  VisitorDaysPerMonth: 'VisitorDaysPerMonth',
} as const;

/** The permit types of the console: owners and managers create, edit and retire them; analysts read. */
export function PermitTypes({ operatorId }: { operatorId: number }) {
  const { t } = useTranslation();
  const money = useMoney();
  const { Role } = useMembership();
  const list = usePermitTypes(operatorId);
  const zones = useZoneChoices(operatorId);
  const { save, retire } = usePermitTypeChanges(operatorId);
  const [editing, setEditing] = useState<PermitType | null>(null);
  const [retiring, setRetiring] = useState<PermitType | null>(null);
  const form = useSchemaForm<TypeForm>(TypeForm, EMPTY);
  const canChange = operatorCan(Role, 'permits');
  const picked = form.watch('ZoneIds');
  const zoneName = (id: number) => zones.data?.Zones.find((z) => z.ZoneId === id)?.ZoneNumber ?? String(id);
  const edit = (p: PermitType | null) => {
    setEditing(p);
    form.reset(p ? formOf(p) : EMPTY);
  };
  const submit = form.handleSubmit(async (v) => {
    try {
      await save.mutateAsync({ typeId: editing?.Id ?? null, body: bodyOf(v) });
      toast.success(editing ? t('Permit type saved') : t('Permit type created'));
      edit(null);
    } catch (err) {
      showFormError(err, form.setError, SERVER_FIELDS);
    }
  });
  const confirmRetire = () => {
    if (!retiring) return;
    retire.mutate(retiring.Id, {
      onSuccess: () => toast.success(t('Permit type retired')),
      onError: toastFailure,
      onSettled: () => setRetiring(null),
    });
  };
  return (
    <section aria-labelledby="permit-types-title" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h1 id="permit-types-title" className="mb-3 text-xl font-bold text-slate-900">
        {t('Permit types')}
      </h1>
      <Loaded
        query={list}
        skeleton={<Skeleton rows={3} className="h-10" />}
        failed={t('Permit types could not be loaded.')}
      >
        {(types) =>
          types.length === 0 ? (
            <p className="text-slate-600">{t('No permit type yet.')}</p>
          ) : (
            <div className="overflow-x-auto">
              <table className="w-full text-start text-sm" data-testid="permit-types">
                <thead className="text-slate-600">
                  <tr>
                    <th scope="col" className="py-2 pe-3 text-start">
                      {t('Kind')}
                    </th>
                    <th scope="col" className="py-2 pe-3 text-start">
                      {t('Name')}
                    </th>
                    <th scope="col" className="py-2 pe-3 text-start">
                      {t('Zones')}
                    </th>
                    <th scope="col" className="py-2 pe-3 text-end">
                      {t('Months')}
                    </th>
                    <th scope="col" className="py-2 pe-3 text-end">
                      {t('Price')}
                    </th>
                    <th scope="col" className="py-2 pe-3 text-start">
                      {t('Proof required')}
                    </th>
                    <th scope="col" className="py-2 pe-3 text-end">
                      {t('Max plates')}
                    </th>
                    <th scope="col" className="py-2 pe-3 text-end">
                      {t('Visitor days a month')}
                    </th>
                    <th scope="col" className="py-2">
                      <span className="sr-only">{t('Actions')}</span>
                    </th>
                  </tr>
                </thead>
                <tbody className="divide-y divide-slate-200">
                  {types.map((p) => (
                    <tr key={p.Id}>
                      <td className="py-2 pe-3">{kindLabel(t, p.Kind)}</td>
                      <td className="py-2 pe-3 font-semibold break-words text-slate-900">
                        {p.Name}
                        {p.Retired && <span className="ms-2 font-normal text-slate-600">{t('Retired')}</span>}
                      </td>
                      <td className="py-2 pe-3 break-words">{p.ZoneIds.map(zoneName).join(', ')}</td>
                      <td className="py-2 pe-3 text-end">{p.ValidMonths}</td>
                      <td className="py-2 pe-3 text-end">{money(p.PriceCents / 100)}</td>
                      <td className="py-2 pe-3">{p.ProofRequired ? t('Yes') : t('No')}</td>
                      <td className="py-2 pe-3 text-end">{p.MaxPlates}</td>
                      <td className="py-2 pe-3 text-end">{p.VisitorDaysPerMonth}</td>
                      <td className="py-2">
                        {canChange && !p.Retired && (
                          <div className="flex flex-wrap justify-end gap-1">
                            <Button
                              variant="ghost"
                              size="sm"
                              onClick={() => edit(p)}
                              aria-label={t('Edit {{name}}', { name: p.Name })}
                            >
                              {t('Edit')}
                            </Button>
                            <Button
                              variant="ghost"
                              size="sm"
                              onClick={() => setRetiring(p)}
                              aria-label={t('Retire {{name}}', { name: p.Name })}
                            >
                              {t('Retire')}
                            </Button>
                          </div>
                        )}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Loaded>
      {canChange && (
        <form
          className="mt-4 grid gap-3 sm:grid-cols-2 lg:grid-cols-4"
          onSubmit={(e) => void submit(e)}
          noValidate
          aria-label={editing ? t('Edit {{name}}', { name: editing.Name }) : t('Create a permit type')}
        >
          <h2 className="text-lg font-semibold text-slate-900 sm:col-span-2 lg:col-span-4">
            {editing ? t('Edit {{name}}', { name: editing.Name }) : t('Create a permit type')}
          </h2>
          <SelectField
            label={t('Kind')}
            placeholder={t('Choose a kind')}
            {...form.field('Kind')}
            options={PERMIT_KIND_VALUES.map((k) => ({ value: k, label: kindLabel(t, k) }))}
          />
          <TextField label={t('Name')} {...form.field('Name')} maxLength={80} />
          <TextField label={t('Months valid')} inputMode="numeric" {...form.field('ValidMonths')} />
          <TextField label={t('Price')} inputMode="decimal" {...form.field('Price')} />
          <TextField label={t('Max plates')} inputMode="numeric" {...form.field('MaxPlates')} />
          <TextField label={t('Visitor days a month')} inputMode="numeric" {...form.field('VisitorDaysPerMonth')} />
          <label className="flex min-h-11 items-center gap-3 self-end text-sm text-slate-800">
            <input type="checkbox" className="size-5 accent-brand-700" {...form.register('ProofRequired')} />
            <span>{t('Proof required')}</span>
          </label>
          <div className="sm:col-span-2 lg:col-span-4">
            <Loaded
              query={zones}
              skeleton={<Skeleton rows={1} className="h-10" />}
              failed={t('Zones could not be loaded.')}
            >
              {(page) => (
                <ZoneChecklist
                  zones={page.Zones}
                  picked={picked}
                  onPick={(ids) => form.setValue('ZoneIds', ids, { shouldValidate: form.formState.isSubmitted })}
                  label={t('Zones')}
                />
              )}
            </Loaded>
            {form.formState.errors.ZoneIds?.message && (
              <p role="alert" className="text-xs font-medium text-red-600">
                {t(form.formState.errors.ZoneIds.message)}
              </p>
            )}
          </div>
          <div className="flex flex-wrap items-end gap-2 sm:col-span-2 lg:col-span-4">
            <Button type="submit" loading={form.submitting}>
              {editing ? t('Save changes') : t('Create a permit type')}
            </Button>
            {editing && (
              <Button variant="ghost" onClick={() => edit(null)}>
                {t('Cancel')}
              </Button>
            )}
          </div>
        </form>
      )}
      <Dialog
        open={retiring !== null}
        onOpenChange={(open) => !open && setRetiring(null)}
        title={t('Retire {{name}}?', { name: retiring?.Name ?? '' })}
        description={t('It takes no new applications; the permits already given stay.')}
      >
        <Button variant="danger" loading={retire.isPending} onClick={confirmRetire}>
          {t('Retire')}
        </Button>
        <Button variant="ghost" onClick={() => setRetiring(null)}>
          {t('Cancel')}
        </Button>
      </Dialog>
    </section>
  );
}

import { useState } from 'react';
import { z } from 'zod';
import {
  formatDate,
  operatorCan,
  PERMIT_KIND_VALUES,
  PERMIT_STATUS_VALUES,
  PermitTypeInput,
  type Permit,
  type PermitType,
} from '@parkit/contract';
import { useTranslation, type TFunction } from '../../../lib/i18n.ts';
import { useMoney } from '../../../lib/money.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { toast } from '../../../lib/toasts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { Loaded, Notice } from '../../../components/ui/loaded.tsx';
import { PrivateFile } from '../../../components/ui/private-file.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useZoneChoices } from '../api/sessions.ts';
import {
  permitProofUrl,
  useDecidePermit,
  useOperatorPermits,
  usePermitTypeChanges,
  usePermitTypes,
} from '../api/permits.ts';
import { useMembership } from './console-shell.tsx';

type PermitKind = (typeof PERMIT_KIND_VALUES)[number];
type PermitStatus = (typeof PERMIT_STATUS_VALUES)[number];

const failure = (t: TFunction, err: unknown) =>
  err instanceof ApiError && err.message ? t(err.message) : t('Something went wrong. Try again.');

const kindLabel = (t: TFunction, k: PermitKind) =>
  ({
    resident: t('Resident'),
    visitor: t('Visitor'),
    business: t('Business'),
    disabled: t('Disabled'),
    ev: t('Electric vehicle'),
  })[k];

const statusLabel = (t: TFunction, s: PermitStatus) =>
  ({
    pending: t('Pending'),
    approved: t('Approved'),
    refused: t('Refused'),
    active: t('Active'),
    expired: t('Expired'),
  })[s];

/**
 * Permits in the console (/operator/{id}/permits, docs/permits.md): the permit types (owners and
 * managers create, edit and retire them; analysts read) and the applications, pending first, with
 * their proof and, for a pending one, Approve and Refuse with a reason. Officers do not see the page.
 */
export function PermitsConsoleScreen() {
  const { t } = useTranslation();
  const { OperatorId, Role } = useMembership();
  if (!operatorCan(Role, 'readPermits')) return <Notice>{t('Your role does not show permits.')}</Notice>;
  return (
    <div className="grid gap-4">
      <PermitTypes operatorId={OperatorId} />
      <section
        aria-labelledby="applications-title"
        className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
      >
        <h2 id="applications-title" className="mb-3 text-xl font-bold text-slate-900">
          {t('Applications')}
        </h2>
        <Applications operatorId={OperatorId} />
      </section>
    </div>
  );
}

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

function PermitTypes({ operatorId }: { operatorId: number }) {
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
      onError: (err) => toast.error(failure(t, err)),
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
              {(page) =>
                page.Zones.length === 0 ? (
                  <p className="text-sm text-slate-600">{t('No zone found.')}</p>
                ) : (
                  <fieldset>
                    <legend className="text-sm font-medium text-slate-700">{t('Zones')}</legend>
                    <div className="mt-1 flex max-h-40 flex-wrap gap-2 overflow-y-auto">
                      {page.Zones.map((z) => (
                        <label
                          key={z.ZoneId}
                          className="flex min-h-11 items-center gap-2 rounded-lg px-2 ring-1 ring-slate-300"
                        >
                          <input
                            type="checkbox"
                            checked={picked.includes(z.ZoneId)}
                            onChange={(e) =>
                              form.setValue(
                                'ZoneIds',
                                e.target.checked ? [...picked, z.ZoneId] : picked.filter((id) => id !== z.ZoneId),
                                { shouldValidate: form.formState.isSubmitted },
                              )
                            }
                          />
                          <span className="break-words">
                            {z.ZoneNumber} · {z.Name}
                          </span>
                        </label>
                      ))}
                    </div>
                  </fieldset>
                )
              }
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

/** Pending first, then newest first (the server's order). */
const pendingFirst = (list: Permit[]) =>
  [...list].sort((a, b) => Number(b.Status === 'pending') - Number(a.Status === 'pending'));

function Applications({ operatorId }: { operatorId: number }) {
  const { t } = useTranslation();
  const [status, setStatus] = useState<PermitStatus | ''>('pending');
  const list = useOperatorPermits(operatorId, status);
  return (
    <>
      <div className="mb-3 max-w-xs">
        <SelectField
          label={t('Status')}
          placeholder={t('Every status')}
          value={status}
          onChange={(e) => setStatus(e.target.value as PermitStatus | '')}
          options={PERMIT_STATUS_VALUES.map((s) => ({ value: s, label: statusLabel(t, s) }))}
        />
      </div>
      <Loaded
        query={list}
        skeleton={<Skeleton rows={3} className="h-16" />}
        failed={t('Applications could not be loaded.')}
      >
        {(permits) =>
          permits.length === 0 ? (
            <p className="text-slate-600">{t('No application matches.')}</p>
          ) : (
            <ul className="divide-y divide-slate-200" data-testid="permit-applications">
              {pendingFirst(permits).map((p) => (
                <ApplicationRow key={p.Id} operatorId={operatorId} permit={p} />
              ))}
            </ul>
          )
        }
      </Loaded>
    </>
  );
}

function ApplicationRow({ operatorId, permit: p }: { operatorId: number; permit: Permit }) {
  const { t } = useTranslation();
  const { Role } = useMembership();
  const decide = useDecidePermit(operatorId);
  const [refusing, setRefusing] = useState(false);
  const approve = () =>
    decide.mutate(
      { permitId: p.Id },
      {
        onSuccess: () => toast.success(t('Application approved')),
        onError: (err) => toast.error(failure(t, err)),
      },
    );
  return (
    <li className="flex flex-wrap items-center gap-3 py-3 text-sm">
      <div className="min-w-0 flex-1">
        <p className="font-semibold break-words text-slate-900">
          {t('Driver {{id}}', { id: p.MemberId })} · {p.TypeName} · {statusLabel(t, p.Status)}
        </p>
        <p className="break-words text-slate-600">
          {p.Plates.join(', ')} · {t('Applied {{date}}', { date: formatDate(p.CreatedAt) })}
        </p>
        {p.RefusalReason && (
          <p className="break-words text-slate-700">{t('Refused: {{reason}}', { reason: p.RefusalReason })}</p>
        )}
      </div>
      {p.ProofAttachmentId && (
        <PrivateFile
          url={permitProofUrl(operatorId, p.Id)}
          name={t('Proof of application {{id}}', { id: p.Id })}
          contentType="application/octet-stream"
        />
      )}
      {p.Status === 'pending' && operatorCan(Role, 'permits') && (
        <div className="flex flex-wrap gap-2">
          <Button size="sm" loading={decide.isPending} onClick={approve}>
            {t('Approve')}
          </Button>
          <Button size="sm" variant="secondary" disabled={decide.isPending} onClick={() => setRefusing(true)}>
            {t('Refuse')}
          </Button>
          <RefuseDialog operatorId={operatorId} permit={p} open={refusing} onOpenChange={setRefusing} />
        </div>
      )}
    </li>
  );
}

const RefuseForm = z.object({
  Reason: z.string().trim().min(1, 'Say why the application is refused').max(500, 'At most 500 characters'),
});
type RefuseForm = z.infer<typeof RefuseForm>;

function RefuseDialog({
  operatorId,
  permit,
  open,
  onOpenChange,
}: {
  operatorId: number;
  permit: Permit;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation();
  const decide = useDecidePermit(operatorId);
  const form = useSchemaForm<RefuseForm>(RefuseForm, { Reason: '' });
  const submit = form.handleSubmit(async (v) => {
    try {
      await decide.mutateAsync({ permitId: permit.Id, refuse: { Reason: v.Reason } });
      toast.success(t('Application refused'));
      form.reset({ Reason: '' });
      onOpenChange(false);
    } catch (err) {
      showFormError(err, form.setError, ['Reason']);
    }
  });
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t('Refuse application {{id}}', { id: permit.Id })}
      description={t('The driver reads the reason.')}
    >
      <form className="flex flex-col gap-3" onSubmit={(e) => void submit(e)} noValidate>
        <TextField label={t('Reason')} maxLength={500} autoComplete="off" {...form.field('Reason')} />
        <Button type="submit" variant="danger" loading={form.submitting}>
          {t('Refuse')}
        </Button>
        <Button variant="ghost" onClick={() => onOpenChange(false)}>
          {t('Cancel')}
        </Button>
      </form>
    </Dialog>
  );
}

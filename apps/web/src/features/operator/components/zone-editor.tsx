import { lazy, Suspense, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { operatorCan, type OperatorZone } from '@parkit/contract';
import { useTranslation, type TFunction } from '../../../lib/i18n.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { toast } from '../../../lib/toasts.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { SelectField, TextField } from '../../../components/ui/field.tsx';
import { Loaded, Notice } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useRetireZone, useSaveZone, useZone } from '../api/zones.ts';
import { operatorPath, zonePath } from '../lib/paths.ts';
import { useMembership } from './console-shell.tsx';
import {
  asNumber,
  BLANK,
  FIELDS,
  firstMessage,
  valuesOf,
  ZoneForm,
  type CheckedZone,
  type ZoneFormValues,
} from './zone-form.ts';

const ZoneMapEditor = lazy(() => import('./zone-map-editor.tsx').then((m) => ({ default: m.ZoneMapEditor })));

function weekdays(t: TFunction): string[] {
  return [t('Mon'), t('Tue'), t('Wed'), t('Thu'), t('Fri'), t('Sat'), t('Sun')];
}

/** /operator/{id}/zones/new and /zones/{zoneId}: the zone's form beside its map. */
export function ZoneEditorScreen() {
  const { t } = useTranslation();
  const { OperatorId } = useMembership();
  const param = useParams().zoneId;
  const zoneId = param === 'new' ? null : /^[1-9]\d{0,9}$/.test(param ?? '') ? Number(param) : undefined;
  const zone = useZone(OperatorId, zoneId ?? null);
  if (zoneId === undefined) return <Notice>{t('Zone not found')}</Notice>;
  if (zoneId === null) return <ZoneEditor zone={null} />;
  return (
    <Loaded
      query={zone}
      skeleton={<Skeleton rows={4} className="h-20" />}
      failed={t('The zone could not be loaded.')}
      refused={{ status: [404], message: t('Zone not found') }}
    >
      {(z) => <ZoneEditor key={z.ZoneId} zone={z} />}
    </Loaded>
  );
}

function ZoneEditor({ zone }: { zone: OperatorZone | null }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { OperatorId, Role } = useMembership();
  const editable = operatorCan(Role, 'zones') && !zone?.RetiredAt;
  const save = useSaveZone(OperatorId, zone?.ZoneId ?? null);
  const form = useSchemaForm<ZoneFormValues, CheckedZone>(ZoneForm, zone ? valuesOf(zone) : BLANK);
  const [retiring, setRetiring] = useState(false);
  const lat = asNumber(form.watch('Latitude'));
  const lng = asNumber(form.watch('Longitude'));
  const point =
    typeof lat === 'number' && typeof lng === 'number' && Number.isFinite(lat) && Number.isFinite(lng)
      ? { lat, lng }
      : null;
  const curb = form.watch('Curb');
  const curbError = firstMessage(form.formState.errors.Curb);

  const submit = form.handleSubmit(async (body) => {
    try {
      const saved = await save.mutateAsync(body);
      if (zone) {
        toast.success(t('Zone saved'));
        form.reset(valuesOf(saved));
      } else {
        toast.success(t('Zone created'));
        await navigate(zonePath(OperatorId, saved.ZoneId), { replace: true });
      }
    } catch (err) {
      showFormError(err, form.setError, FIELDS);
    }
  });
  const title = zone ? t('Zone {{number}}', { number: zone.ZoneNumber }) : t('New zone');

  return (
    <section aria-labelledby="zone-title" className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <div className="mb-3 flex flex-wrap items-center gap-3">
        <h1 id="zone-title" className="flex-1 text-xl font-bold break-words text-slate-900">
          {title}
        </h1>
        <ButtonLink to={operatorPath(OperatorId, 'zones')} variant="ghost" size="sm">
          {t('All zones')}
        </ButtonLink>
      </div>
      {zone?.RetiredAt && (
        <p className="mb-3 rounded-lg bg-slate-100 p-3 text-sm text-slate-700">
          {t('This zone is retired: it keeps its history and takes no new sessions. It cannot be changed.')}
        </p>
      )}
      {!operatorCan(Role, 'zones') && (
        <p className="mb-3 rounded-lg bg-slate-100 p-3 text-sm text-slate-700">
          {t('Your role can read zones but not change them.')}
        </p>
      )}
      <form noValidate onSubmit={(e) => void submit(e)} className="grid gap-4 lg:grid-cols-[3fr_2fr]">
        <div className="flex min-w-0 flex-col gap-2">
          <Suspense fallback={<Skeleton rows={1} className="h-80" />}>
            <ZoneMapEditor
              point={point}
              curb={curb}
              editable={editable}
              onPoint={(at) => {
                const opts = { shouldDirty: true, shouldValidate: form.formState.isSubmitted };
                form.setValue('Latitude', at.lat.toFixed(6), opts);
                form.setValue('Longitude', at.lng.toFixed(6), opts);
              }}
              onCurb={(c) =>
                form.setValue('Curb', c, { shouldDirty: true, shouldValidate: form.formState.isSubmitted })
              }
            />
          </Suspense>
          <p className="text-sm text-slate-600">
            {curb
              ? curb.type === 'LineString'
                ? t('Curb: a line of {{count}} points', { count: curb.coordinates.length })
                : t('Curb: an area of {{count}} corners', { count: (curb.coordinates[0]?.length ?? 1) - 1 })
              : t('No curb drawn (optional).')}
          </p>
          {curbError && (
            <p role="alert" className="text-sm font-medium text-red-600">
              {t(curbError)}
            </p>
          )}
        </div>
        <fieldset disabled={!editable} className="flex min-w-0 flex-col gap-3">
          <legend className="sr-only">{t('Zone details')}</legend>
          <div className="grid gap-3 sm:grid-cols-2">
            <TextField label={t('Latitude')} inputMode="decimal" autoComplete="off" {...form.field('Latitude')} />
            <TextField label={t('Longitude')} inputMode="decimal" autoComplete="off" {...form.field('Longitude')} />
          </div>
          <TextField
            label={t('Zone number')}
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            {...form.field('ZoneNumber')}
          />
          <TextField label={t('Name')} autoComplete="off" {...form.field('Name')} />
          <TextField label={t('Address')} autoComplete="off" {...form.field('Address')} />
          <div className="grid gap-3 sm:grid-cols-3">
            <TextField label={t('City')} autoComplete="off" {...form.field('City')} />
            <TextField label={t('State')} autoComplete="off" maxLength={2} {...form.field('State')} />
            <TextField label={t('ZIP code')} autoComplete="off" inputMode="numeric" {...form.field('Zip')} />
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <SelectField
              name="Kind"
              value={form.watch('Kind')}
              onChange={(e) => form.setValue('Kind', e.target.value, { shouldDirty: true })}
              error={form.formState.errors.Kind?.message}
              label={t('Kind')}
              placeholder={t('Choose a kind')}
              options={[
                { value: 'street', label: t('Street') },
                { value: 'lot', label: t('Lot') },
                { value: 'garage', label: t('Garage') },
              ]}
            />
            <TextField
              label={t('Capacity (spaces)')}
              inputMode="numeric"
              autoComplete="off"
              {...form.field('Capacity')}
            />
          </div>
          <fieldset className="flex flex-col gap-3 rounded-xl border border-slate-200 p-3">
            <legend className="px-1 text-sm font-semibold text-slate-800">{t('Price')}</legend>
            <div className="grid gap-3 sm:grid-cols-2">
              <TextField
                label={t('Rate per hour')}
                inputMode="decimal"
                autoComplete="off"
                {...form.field('RatePerHour')}
              />
              <TextField
                label={t('Maximum stay (minutes)')}
                inputMode="numeric"
                autoComplete="off"
                {...form.field('MaxStayMinutes')}
              />
            </div>
            <fieldset aria-describedby="paid-days-error">
              <legend className="text-sm font-medium text-slate-700">{t('Paid days')}</legend>
              <div className="mt-1 flex flex-wrap gap-2">
                {weekdays(t).map((label, i) => (
                  <label
                    key={label}
                    className="flex min-h-11 items-center gap-2 rounded-lg border border-slate-300 px-3 text-sm has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50"
                  >
                    <input type="checkbox" value={String(i + 1)} className="size-4" {...form.register('PaidDays')} />
                    {label}
                  </label>
                ))}
              </div>
              {form.formState.errors.PaidDays && (
                <p id="paid-days-error" role="alert" className="mt-1 text-xs font-medium text-red-600">
                  {t(firstMessage(form.formState.errors.PaidDays) ?? '')}
                </p>
              )}
            </fieldset>
            <div className="grid gap-3 sm:grid-cols-2">
              <TextField
                label={t('Paid from')}
                hint={t('HH:MM')}
                inputMode="numeric"
                autoComplete="off"
                {...form.field('PaidFrom')}
              />
              <TextField
                label={t('Paid until')}
                hint={t('HH:MM, 24:00 for midnight')}
                inputMode="numeric"
                autoComplete="off"
                {...form.field('PaidUntil')}
              />
            </div>
          </fieldset>
          {editable && (
            <div className="flex flex-wrap gap-2">
              <Button type="submit" loading={form.submitting}>
                {zone ? t('Save zone') : t('Create zone')}
              </Button>
              {zone && (
                <Button variant="danger" onClick={() => setRetiring(true)}>
                  {t('Retire zone')}
                </Button>
              )}
            </div>
          )}
        </fieldset>
      </form>
      {zone && <RetireDialog zone={zone} open={retiring} onClose={() => setRetiring(false)} />}
    </section>
  );
}

function RetireDialog({ zone, open, onClose }: { zone: OperatorZone; open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { OperatorId } = useMembership();
  const retire = useRetireZone(OperatorId);
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={t('Retire zone {{number}}?', { number: zone.ZoneNumber })}
      description={t(
        'It leaves Find Parking and takes no new sessions; sessions running there run to their end. Its history is kept. This cannot be undone.',
      )}
    >
      <Button
        variant="danger"
        loading={retire.isPending}
        onClick={() =>
          retire.mutate(zone.ZoneId, {
            onSuccess: () => toast.success(t('Zone retired')),
            onSettled: onClose,
          })
        }
      >
        {t('Retire zone')}
      </Button>
      <Button variant="ghost" onClick={onClose}>
        {t('Cancel')}
      </Button>
    </Dialog>
  );
}

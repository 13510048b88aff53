import { useRef, useState, type FormEvent } from 'react';
import { formatDate, type Permit, type PermitType } from '@parkit/contract';
import { useTranslation, type TFunction } from '../../../lib/i18n.ts';
import { useMoney } from '../../../lib/money.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { toast } from '../../../lib/toasts.tsx';
import { paths } from '../../../config/paths.ts';
import { Button } from '../../../components/ui/button.tsx';
import { TextField } from '../../../components/ui/field.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useVehicles } from '../../vehicles/api/get-vehicles.ts';
import {
  findZone,
  useApplyPermit,
  useGiveVisitorDay,
  usePayPermit,
  usePermits,
  usePermitTypes,
  useVisitorDays,
} from '../api/permits.ts';

export const permitStatusLabel = (t: TFunction, s: Permit['Status']) =>
  ({
    pending: t('Pending: waiting for a decision'),
    approved: t('Approved: to pay'),
    refused: t('Refused'),
    active: t('Active'),
    expired: t('Expired'),
  })[s];

const failure = (t: TFunction, err: unknown) =>
  err instanceof ApiError && err.message ? t(err.message) : t('Something went wrong. Try again.');

/** The plates typed in one field, split at commas or spaces. */
const splitPlates = (text: string) =>
  text
    .split(/[,;\s]+/)
    .map((p) => p.trim().toUpperCase())
    .filter((p) => p.length > 0);

/**
 * Permits (/permits): the driver's permits and applications with their status, paid from the wallet
 * once approved; an application for a zone's permit type; an active resident permit's visitor days
 * (issue 30, docs/permits.md).
 */
export function PermitsScreen() {
  const { t } = useTranslation();
  const list = usePermits();
  const [applying, setApplying] = useState(false);
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <PageHeader title={t('Permits')} back={paths.profile} />
      <main className="mx-auto flex w-full max-w-xl flex-col gap-3 p-4">
        {applying ? (
          <ApplyForm onDone={() => setApplying(false)} />
        ) : (
          <div>
            <Button onClick={() => setApplying(true)}>{t('Apply for a permit')}</Button>
          </div>
        )}
        <Loaded
          query={list}
          skeleton={<Skeleton rows={3} className="h-32" />}
          failed={t('Permits could not be loaded.')}
        >
          {(permits) =>
            permits.length === 0 ? (
              <p className="text-slate-600">{t('No permits yet')}</p>
            ) : (
              <ul className="flex flex-col gap-3" data-testid="permits">
                {permits.map((p) => (
                  <PermitCard key={p.Id} permit={p} />
                ))}
              </ul>
            )
          }
        </Loaded>
      </main>
    </div>
  );
}

function PermitCard({ permit: p }: { permit: Permit }) {
  const { t } = useTranslation();
  const money = useMoney();
  const pay = usePayPermit();
  const [key] = useState(() => crypto.randomUUID());
  // A second tap before the button is disabled sends nothing.
  const paying = useRef(false);
  const payNow = () => {
    if (paying.current) return;
    paying.current = true;
    pay.mutate(
      { permitId: p.Id, key },
      {
        onSuccess: () => toast.success(t('Paid: your permit is active')),
        onError: (err) => toast.error(failure(t, err)),
        onSettled: () => {
          paying.current = false;
        },
      },
    );
  };
  return (
    <li className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <p className="font-semibold break-words text-slate-900">{p.TypeName}</p>
      <p className="mt-1 text-sm font-medium text-slate-900">{permitStatusLabel(t, p.Status)}</p>
      {p.Status === 'refused' && p.RefusalReason && (
        <p className="text-sm break-words text-slate-600">{t('Reason: {{reason}}', { reason: p.RefusalReason })}</p>
      )}
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-500">{t('Plates')}</dt>
        <dd className="break-words text-slate-900">{p.Plates.join(', ')}</dd>
        <dt className="text-slate-500">{t('Price')}</dt>
        <dd className="text-slate-900 tabular-nums">{money(p.PriceCents / 100)}</dd>
        {p.ValidFrom && p.ValidUntil && (
          <>
            <dt className="text-slate-500">{t('Valid')}</dt>
            <dd className="text-slate-900">
              {t('{{from}} to {{until}}', { from: formatDate(p.ValidFrom), until: formatDate(p.ValidUntil) })}
            </dd>
          </>
        )}
      </dl>
      {p.Status === 'approved' && (
        <div className="mt-3">
          <Button onClick={payNow} loading={pay.isPending}>
            {t('Pay {{amount}} from the wallet', { amount: money(p.PriceCents / 100) })}
          </Button>
        </div>
      )}
      {p.Status === 'active' && p.VisitorDaysPerMonth > 0 && <VisitorDays permit={p} />}
    </li>
  );
}

/** Today as YYYY-MM-DD in the device's time. */
function today() {
  const d = new Date();
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

function VisitorDays({ permit: p }: { permit: Permit }) {
  const { t } = useTranslation();
  const days = useVisitorDays(p.Id);
  const give = useGiveVisitorDay(p.Id);
  const [plate, setPlate] = useState('');
  const [date, setDate] = useState(today);
  const month = date.slice(0, 7);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (give.isPending) return;
    give.mutate(
      { Plate: plate.trim().toUpperCase(), Date: date },
      {
        onSuccess: () => {
          toast.success(t('Visitor day given'));
          setPlate('');
        },
        onError: (err) => toast.error(failure(t, err)),
      },
    );
  };
  return (
    <section className="mt-3 border-t border-slate-100 pt-3" aria-label={t('Visitor days')}>
      <h3 className="text-sm font-semibold text-slate-700">{t('Visitor days')}</h3>
      <Loaded query={days} compact skeleton={<Skeleton rows={1} />} failed={t('Visitor days could not be loaded.')}>
        {(all) => {
          const inMonth = all.filter((d) => d.Date.startsWith(month));
          const left = Math.max(0, p.VisitorDaysPerMonth - inMonth.length);
          return (
            <>
              <p className="text-sm text-slate-600">{t('{{count}} visitor days left this month', { count: left })}</p>
              {inMonth.length > 0 && (
                <ul className="mt-1 text-sm text-slate-900">
                  {inMonth.map((d) => (
                    <li key={d.Id} className="break-words">
                      {formatDate(d.Date)} · {d.Plate}
                    </li>
                  ))}
                </ul>
              )}
            </>
          );
        }}
      </Loaded>
      <form className="mt-2 flex flex-col gap-2" onSubmit={submit} aria-label={t('Give a visitor day')}>
        <TextField
          label={t('Visitor’s plate')}
          value={plate}
          onChange={(e) => setPlate(e.target.value)}
          maxLength={20}
          required
        />
        <TextField label={t('Date')} type="date" value={date} onChange={(e) => setDate(e.target.value)} required />
        <div>
          <Button type="submit" loading={give.isPending} disabled={plate.trim() === ''}>
            {t('Give a visitor day')}
          </Button>
        </div>
      </form>
    </section>
  );
}

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

function ApplyForm({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation();
  const [number, setNumber] = useState('');
  const [zoneId, setZoneId] = useState<number | null>(null);
  const [looking, setLooking] = useState(false);
  const [zoneError, setZoneError] = useState<string | undefined>();
  const types = usePermitTypes(zoneId);
  const [typeId, setTypeId] = useState<number | null>(null);
  const vehicles = useVehicles();
  const [plates, setPlates] = useState<string | null>(null);
  const [proof, setProof] = useState<File | null>(null);
  const [error, setError] = useState<string | undefined>();
  const apply = useApplyPermit();
  const type = types.data?.find((x) => x.Id === typeId) ?? null;
  // Prefilled from the driver's vehicles until the driver types.
  const plateText =
    plates ??
    (vehicles.data ?? [])
      .slice(0, type?.MaxPlates ?? 1)
      .map((v) => v.PlateNumber)
      .join(', ');

  const lookUp = async (e: FormEvent) => {
    e.preventDefault();
    const n = number.trim();
    if (!n) return setZoneError(t('Enter a zone number'));
    setLooking(true);
    setZoneError(undefined);
    try {
      const zone = await findZone(n);
      if (!zone) setZoneError(t('Zone not found'));
      setZoneId(zone?.ZoneId ?? null);
      setTypeId(null);
    } catch (err) {
      setZoneError(failure(t, err));
    } finally {
      setLooking(false);
    }
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!type || apply.isPending) return;
    const list = splitPlates(plateText);
    if (list.length === 0) return setError(t('Enter a plate'));
    if (list.length > type.MaxPlates) return setError(t('This permit takes fewer plates'));
    if (type.ProofRequired && !proof) return setError(t('Attach a proof of address (PDF, PNG or JPEG)'));
    setError(undefined);
    apply.mutate(
      { typeId: type.Id, plates: list, proof: type.ProofRequired ? proof : null },
      {
        onSuccess: () => {
          toast.success(t('Your application was sent'));
          onDone();
        },
        onError: (err) => setError(failure(t, err)),
      },
    );
  };

  return (
    <section className="flex flex-col gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200">
      <h2 className="font-semibold text-slate-900">{t('Apply for a permit')}</h2>
      <form className="flex flex-col gap-2" onSubmit={(e) => void lookUp(e)} noValidate>
        <TextField
          label={t('Zone number')}
          value={number}
          onChange={(e) => setNumber(e.target.value)}
          inputMode="numeric"
          maxLength={20}
          error={zoneError}
        />
        <div>
          <Button type="submit" variant="secondary" loading={looking}>
            {t('Find the permits of this zone')}
          </Button>
        </div>
      </form>
      {zoneId !== null && (
        <Loaded query={types} compact skeleton={<Skeleton rows={2} />} failed={t('Permit types could not be loaded.')}>
          {(list) =>
            list.length === 0 ? (
              <p className="text-slate-600">{t('This zone has no permits.')}</p>
            ) : (
              <form className="flex flex-col gap-3" onSubmit={submit} noValidate aria-label={t('Apply for a permit')}>
                <fieldset className="flex flex-col gap-2">
                  <legend className="mb-1 text-sm font-medium text-slate-700">{t('Permit type')}</legend>
                  <ul className="flex flex-col gap-2">
                    {list.map((ty) => (
                      <TypeChoice key={ty.Id} type={ty} chosen={ty.Id === typeId} onChoose={() => setTypeId(ty.Id)} />
                    ))}
                  </ul>
                </fieldset>
                {type && (
                  <>
                    <TextField
                      label={t('Plates, separated by commas')}
                      hint={t('Up to {{count}} plates', { count: type.MaxPlates })}
                      value={plateText}
                      onChange={(e) => setPlates(e.target.value)}
                      maxLength={220}
                    />
                    {type.ProofRequired && (
                      <label className="flex flex-col gap-1 text-sm font-medium text-slate-700">
                        {t('Proof of address (PDF, PNG or JPEG)')}
                        <input
                          type="file"
                          accept="application/pdf,image/png,image/jpeg"
                          onChange={(e) => setProof(e.target.files?.[0] ?? null)}
                          className="text-sm"
                        />
                      </label>
                    )}
                  </>
                )}
                {error && (
                  <p role="alert" className="text-sm break-words text-red-700">
                    {error}
                  </p>
                )}
                <div className="flex flex-wrap gap-2">
                  <Button type="submit" loading={apply.isPending} disabled={!type}>
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
      )}
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

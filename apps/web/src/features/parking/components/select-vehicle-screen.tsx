import { useState } from 'react';
import CarFront from 'lucide-react/icons/car-front';
import Plus from 'lucide-react/icons/plus';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import type { UseQueryResult } from '@tanstack/react-query';
import { DEFAULT_DURATION_MINUTES, type Vehicle } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { both, Loaded } from '../../../components/ui/loaded.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { href, paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useQuote } from '../api/get-quote.ts';
import { useZone } from '../api/get-zone.ts';
import { usePayQuote } from '../api/pay-parking.ts';
import { durationChoices } from '../lib/session-time.ts';
import { DurationPicker } from './duration-picker.tsx';
import { useIdParam } from '../hooks/use-id-param.ts';
import { fundsCover, FundsNotice, QuoteSummary } from './quote-summary.tsx';
import { ZoneSign } from './zone-sign.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { useMoney } from '../../../lib/money.ts';

/** The running session a 409 names (its SessionId), to open it instead. */
export function busySessionId(err: unknown): number | null {
  if (!(err instanceof ApiError) || err.status !== 409) return null;
  return err.body?.SessionId ?? null;
}

function VehicleChoice({
  vehicles,
  value,
  onChange,
}: {
  vehicles: Vehicle[];
  value: number;
  onChange: (id: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <fieldset>
      <legend className="mb-2 px-1 text-sm font-semibold text-slate-700">{t('Vehicle')}</legend>
      <div role="radiogroup" aria-label={t('Vehicle')} className="flex flex-col gap-2">
        {vehicles.map((v) => {
          const checked = v.VehicleID === value;
          return (
            <label
              key={v.VehicleID}
              className={`flex cursor-pointer items-center gap-3 rounded-2xl border bg-white p-4 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-700 ${checked ? 'border-brand-700 ring-1 ring-brand-700' : 'border-slate-200'}`}
            >
              <input
                type="radio"
                name="vehicle"
                className="sr-only"
                checked={checked}
                onChange={() => onChange(v.VehicleID)}
              />
              <CarFront className={`size-7 shrink-0 ${checked ? 'text-brand-700' : 'text-slate-400'}`} aria-hidden />
              <span className="min-w-0 flex-1">
                <span className="block text-xl font-bold tracking-wider break-all text-slate-900">
                  {v.PlateNumber.toUpperCase()}
                </span>
                <span className="block text-sm text-slate-600">{`${v.PlateState} · ${v.VehicleMake.toUpperCase()} ${v.VehicleModel.toUpperCase()}`}</span>
              </span>
              <span
                aria-hidden
                className={`size-5 shrink-0 rounded-full border-2 ${checked ? 'border-brand-700 bg-brand-700 shadow-[inset_0_0_0_3px_white]' : 'border-slate-300'}`}
              />
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

/**
 * /SelectVehicle?zone=ID: the vehicle (default: the first), the duration in the zone's
 * steps, a live all-in quote and the Pay button with that total. The vehicles come from the
 * route (features do not import each other).
 */
export function SelectVehicleScreen({ vehicles }: { vehicles: UseQueryResult<Vehicle[]> }) {
  const { t } = useTranslation();
  const money = useMoney();
  const navigate = useNavigate();
  const zoneId = useIdParam('zone');
  const zone = useZone(zoneId);
  const [picked, setPicked] = useState<number | null>(null);
  const [minutes, setMinutes] = useState<number | null>(null);
  const [confirmOpen, setConfirmOpen] = useState(false);
  const pay = usePayQuote('Start');

  const list = vehicles.data ?? [];
  const vehicleId = picked ?? list[0]?.VehicleID ?? null;
  const choices = zone.data ? durationChoices(zone.data.MaxStayMinutes) : [];
  const duration =
    minutes ?? (choices.includes(DEFAULT_DURATION_MINUTES) ? DEFAULT_DURATION_MINUTES : (choices.at(-1) ?? null));
  const quote = useQuote(
    zoneId !== null && vehicleId !== null && duration !== null
      ? { ZoneId: zoneId, VehicleId: vehicleId, DurationMinutes: duration }
      : null,
  );
  const back = zoneId ? href(paths.confirmLocation, { zone: zoneId }) : paths.findParking;

  const start = (confirmed: boolean) => {
    if (!quote.data) return;
    setConfirmOpen(false);
    pay.mutate(
      { QuoteId: quote.data.QuoteId, ...(confirmed ? { ConfirmOverMax: true } : {}) },
      {
        onSuccess: (s) => void navigate(href(paths.parkDetails, { id: s.SessionId })),
        // A lapsed or spent price: show the new one.
        onError: (err) => {
          if (err instanceof ApiError && err.status === 409) void quote.refetch();
        },
      },
    );
  };
  const onPay = () => (quote.data?.OverMaxPayment ? setConfirmOpen(true) : start(false));

  const busy = busySessionId(quote.error);
  const q = quote.data;
  const payError = pay.error instanceof ApiError ? pay.error : null;
  const body =
    zoneId === null ? (
      <p role="alert" className="rounded-2xl bg-white p-6 text-center text-slate-700">
        {t('Choose a zone from the list or the map first.')}
      </p>
    ) : (
      <Loaded
        query={both(zone, vehicles)}
        skeleton={<Skeleton rows={3} className="h-24" />}
        failed={t('The zone could not be loaded.')}
      >
        {([z]) =>
          list.length === 0 ? (
            <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-slate-300 bg-white p-6 text-center">
              <CarFront className="size-10 text-slate-400" aria-hidden />
              <p className="font-semibold text-slate-900">{t('Add a vehicle to park')}</p>
              <p className="text-sm text-slate-600">{t('Your plate is how the parking officer sees that you paid.')}</p>
              <ButtonLink
                to={href(paths.addVehicles, { next: href(paths.selectVehicle, { zone: zoneId }) })}
                size="lg"
                block
              >
                <Plus className="size-5" aria-hidden />
                {t('Add Vehicle')}
              </ButtonLink>
            </div>
          ) : (
            <>
              <div className="flex items-center gap-3 rounded-2xl bg-white p-4 shadow-xs">
                <ZoneSign number={z.ZoneNumber} />
                <div className="min-w-0">
                  <p className="font-semibold break-words text-slate-900">{z.Name}</p>
                  <p className="text-sm text-slate-600">{z.Address}</p>
                </div>
              </div>
              <VehicleChoice vehicles={list} value={vehicleId ?? 0} onChange={setPicked} />
              <Link
                to={href(paths.addVehicles, { next: href(paths.selectVehicle, { zone: zoneId }) })}
                className="inline-flex min-h-11 items-center gap-1 self-start px-1 text-sm font-semibold text-brand-700 hover:underline"
              >
                <Plus className="size-4" aria-hidden />
                {t('Add Vehicle')}
              </Link>
              {duration !== null && (
                <DurationPicker choices={choices} value={duration} onChange={setMinutes} label={t('How long?')} />
              )}
              {busy !== null ? (
                <div
                  role="alert"
                  className="flex flex-col gap-2 rounded-2xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950"
                >
                  <p>{t('This vehicle is already parked')}</p>
                  <Link to={href(paths.parkDetails, { id: busy })} className="font-semibold underline">
                    {t('Open its session')}
                  </Link>
                </div>
              ) : quote.isError ? (
                <p role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-4 text-sm text-red-900">
                  {t(quote.error instanceof ApiError ? quote.error.message : 'The price could not be loaded.')}
                </p>
              ) : q ? (
                <QuoteSummary quote={q} />
              ) : (
                <Skeleton rows={1} className="h-32" />
              )}
              {q && (
                <FundsNotice
                  quote={q}
                  addMoney={
                    <Link to={paths.addMoney} className="font-semibold underline">
                      {t('Add Money')}
                    </Link>
                  }
                />
              )}
              {payError && (
                <p role="alert" className="rounded-2xl border border-red-200 bg-red-50 p-4 text-sm text-red-900">
                  {t(payError.message)}
                </p>
              )}
              <Button
                block
                size="lg"
                loading={pay.isPending}
                disabled={!q || !fundsCover(q) || quote.isFetching}
                onClick={onPay}
              >
                {q ? t('Pay {{total}}', { total: money(q.TotalAmount) }) : t('Pay')}
              </Button>
            </>
          )
        }
      </Loaded>
    );

  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PageHeader title={t('Select Vehicle')} back={back} />
      <div className="flex flex-col gap-4 p-4">{body}</div>
      <Dialog
        open={confirmOpen}
        onOpenChange={setConfirmOpen}
        title={t('More than your Max Payment Amount')}
        description={
          quote.data
            ? t('This session costs {{total}}, more than your Max Payment Amount. Pay anyway?', {
                total: money(quote.data.TotalAmount),
              })
            : ''
        }
      >
        <Button onClick={() => start(true)}>
          {quote.data ? t('Pay {{total}}', { total: money(quote.data.TotalAmount) }) : t('Pay')}
        </Button>
        <Button variant="secondary" onClick={() => setConfirmOpen(false)}>
          {t('Cancel')}
        </Button>
      </Dialog>
    </main>
  );
}

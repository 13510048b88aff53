import { useEffect, useState } from 'react';
import CarFront from 'lucide-react/icons/car-front';
import MapPin from 'lucide-react/icons/map-pin';
import { useLocation, useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import type { UseQueryResult } from '@tanstack/react-query';
import { type ParkingSession, type Vehicle } from '@parkit/contract';
import { formatTime } from '../../../lib/dates.ts';
import { Button } from '../../../components/ui/button.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { href, paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useParkingSession } from '../api/get-parking-session.ts';
import { useStopSession } from '../api/stop-session.ts';
import { useCountdown } from '../../../lib/use-countdown.ts';
import { clockOffset, formatCountdown, deviceEnd } from '../lib/session-time.ts';
import { useIdParam } from '../hooks/use-id-param.ts';
import { AmendVehicle } from './amend-vehicle.tsx';
import { AmendZone } from './amend-zone.tsx';
import { ExtendDialog } from './extend-dialog.tsx';
import { SessionLoader } from './session-loader.tsx';
import { StopAction } from './stop-action.tsx';
import { ZoneSign } from './zone-sign.tsx';
import { ProofOfPayment } from './proof-of-payment.tsx';
import { useMoney } from '../../../lib/money.ts';

function Live({ session, offset, vehicles }: { session: ParkingSession; offset: number; vehicles: Vehicle[] }) {
  const { t } = useTranslation();
  const money = useMoney();
  const navigate = useNavigate();
  const left = useCountdown(deviceEnd(session.EndsAt, offset));
  const [extendOpen, setExtendOpen] = useState(false);
  const stop = useStopSession();
  const receipt = href(paths.closingReceipt, { id: session.SessionId });
  // The receipt's back arrow returns where this screen was opened from (its router state).
  const from: unknown = useLocation().state;
  const over = left === 0;
  // Ended by time: the receipt ("Ending, by Stop or by time, opens the receipt").
  useEffect(() => {
    if (over) void navigate(receipt, { replace: true, state: from });
  }, [over, navigate, receipt, from]);
  // The server's now, from the countdown (no clock read during render).
  const amendable = Date.parse(session.AmendableUntil) > Date.parse(session.EndsAt) - left * 1000;
  const room = session.MaxStayMinutes - session.DurationMinutes;

  return (
    <>
      <section
        aria-label={t('Time left')}
        className="flex flex-col items-center gap-1 rounded-2xl bg-brand-700 p-6 text-white shadow-md"
      >
        <p className="text-sm text-brand-50/90">{t('Time left')}</p>
        <p className="text-5xl font-bold tabular-nums" role="timer" aria-live="off" data-testid="countdown">
          {formatCountdown(left)}
        </p>
        <p className="text-sm text-brand-50/90">{t('Ends at {{time}}', { time: formatTime(session.EndsAt) })}</p>
      </section>
      <section className="flex flex-col gap-3 rounded-2xl border border-slate-200 bg-white p-4">
        <div className="flex items-center gap-3">
          <ZoneSign number={session.ZoneNumber} />
          <p className="flex min-w-0 items-start gap-1.5 text-sm text-slate-700">
            <MapPin className="mt-0.5 size-4 shrink-0 text-slate-500" aria-hidden />
            <span className="break-words">{`${session.Address}, ${session.City}, ${session.State}`}</span>
          </p>
        </div>
        <p className="flex items-center gap-2">
          <CarFront className="size-5 text-slate-500" aria-hidden />
          <span className="text-xl font-bold tracking-wider break-all text-slate-900" data-testid="plate">
            {session.PlateNumber.toUpperCase()}
          </span>
          <span className="text-sm text-slate-600">{session.PlateState}</span>
        </p>
        <p className="text-sm text-slate-600">
          {t('Paid {{amount}} · {{n}} minutes', { amount: money(session.AmountPaid), n: session.DurationMinutes })}
        </p>
      </section>
      {amendable && <AmendVehicle session={session} vehicles={vehicles} />}
      {amendable && <AmendZone session={session} />}
      <div className="flex flex-col gap-2">
        <Button block size="lg" disabled={room <= 0} onClick={() => setExtendOpen(true)}>
          {t('Extend')}
        </Button>
        {room <= 0 && (
          <p className="text-center text-sm text-slate-600">{t('The maximum stay in this zone has been reached')}</p>
        )}
        <StopAction
          size="lg"
          description={t('Unused whole minutes go back to your wallet.')}
          stop={stop}
          onStop={() =>
            stop.mutate(session.SessionId, {
              onSuccess: () => void navigate(receipt, { replace: true, state: from }),
              // Already over (the job or another device ended it): the receipt says what happened.
              onError: (err) => {
                if (err instanceof ApiError && err.status === 409)
                  void navigate(receipt, { replace: true, state: from });
              },
            })
          }
        />
      </div>
      <ProofOfPayment session={session} />
      {extendOpen && <ExtendDialog session={session} room={room} onClose={() => setExtendOpen(false)} />}
    </>
  );
}

/**
 * /parkdetails?id=: the live session. The countdown runs on the server's clock
 * (ServerTime of each answer) and the session is read again when the app comes back to the
 * front, so it stays right after the phone sleeps.
 */
export function ParkDetailsScreen({ vehicles }: { vehicles: UseQueryResult<Vehicle[]> }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const id = useIdParam('id');
  const session = useParkingSession(id);
  const ended = session.data?.Status === 'Ended';
  const from: unknown = useLocation().state;
  useEffect(() => {
    if (ended && id !== null) void navigate(href(paths.closingReceipt, { id }), { replace: true, state: from });
  }, [ended, id, navigate, from]);
  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PageHeader title={t('Parking Details')} back={paths.homepage} />
      <div className="flex flex-col gap-4 p-4">
        <SessionLoader id={id} session={session} failed={t('The session could not be loaded.')}>
          {(s) =>
            ended ? (
              <Skeleton rows={2} className="h-32" />
            ) : (
              <Live
                session={s}
                offset={clockOffset(s.ServerTime, session.dataUpdatedAt)}
                vehicles={vehicles.data ?? []}
              />
            )
          }
        </SessionLoader>
      </div>
    </main>
  );
}

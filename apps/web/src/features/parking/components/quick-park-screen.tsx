import { useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { type GuestQuote, type GuestToken, type ParkingSession } from '@parkit/contract';
import { formatTime } from '../../../lib/dates.ts';
import { Button } from '../../../components/ui/button.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useGuestSession, useStopGuest } from '../api/quick-park.ts';
import { useCountdown } from '../../../lib/use-countdown.ts';
import { clockOffset, formatCountdown, deviceEnd } from '../lib/session-time.ts';
import { useIdParam } from '../hooks/use-id-param.ts';
import { guestSessionStore, tokenExpiry } from '../lib/guest-session-store.ts';
import { GuestExtendDialog } from './guest-extend-dialog.tsx';
import { ParkingDetails, PayByCard, VerifyPhone } from './quick-park-forms.tsx';
import { SessionSummary } from './session-summary.tsx';
import { StopAction } from './stop-action.tsx';

/** A Quick Park session: the countdown and Stop while it runs, the summary once it ended. */
function GuestSession({
  token,
  session,
  offset,
  onChange,
}: {
  token: string;
  session: ParkingSession;
  offset: number;
  onChange: (s: ParkingSession) => void;
}) {
  const { t } = useTranslation();
  const left = useCountdown(deviceEnd(session.Status === 'Active' ? session.EndsAt : null, offset));
  const stop = useStopGuest();
  const [extendOpen, setExtendOpen] = useState(false);
  const room = session.MaxStayMinutes - session.DurationMinutes;
  const ended = session.Status !== 'Active' || left === 0;
  // An ended session is not brought back by the next visit: the form is.
  useEffect(() => {
    if (ended) guestSessionStore.forget(session.SessionId);
  }, [ended, session.SessionId]);
  if (ended) {
    return (
      <>
        <SessionSummary session={session} />
        <Link to={paths.register} className="text-center font-semibold text-brand-800 underline">
          {t('Register with this number to keep your sessions')}
        </Link>
      </>
    );
  }
  return (
    <>
      <section
        aria-label={t('Time left')}
        className="flex flex-col items-center gap-1 rounded-2xl bg-brand-700 p-6 text-white"
      >
        <p className="text-sm">{t('Time left')}</p>
        <p className="text-5xl font-bold tabular-nums" role="timer" data-testid="countdown">
          {formatCountdown(left)}
        </p>
        <p className="text-sm">{t('Ends at {{time}}', { time: formatTime(session.EndsAt) })}</p>
      </section>
      <p className="rounded-2xl bg-white p-4 text-sm text-slate-700">
        {t('Zone {{zone}}', { zone: session.ZoneNumber })} · <span className="font-bold">{session.PlateNumber}</span> (
        {session.PlateState})
      </p>
      <p className="text-sm text-slate-600">{t('The receipt and a link to this session were sent to your phone.')}</p>
      <Button block disabled={room <= 0} onClick={() => setExtendOpen(true)}>
        {t('Extend')}
      </Button>
      {room <= 0 && (
        <p className="text-center text-sm text-slate-600">{t('The maximum stay in this zone has been reached')}</p>
      )}
      <StopAction
        description={t('Unused whole minutes go back to your card.')}
        stop={stop}
        onStop={() => stop.mutate({ token, id: session.SessionId }, { onSuccess: onChange })}
      />
      {extendOpen && (
        <GuestExtendDialog token={token} session={session} onExtended={onChange} onClose={() => setExtendOpen(false)} />
      )}
    </>
  );
}

/**
 * The session the SMS link opens (?session=&token=), without an account, or the one this browser
 * kept (a reload, a closed tab): kept on this device until it ends, as the link would open it.
 */
function LinkedSession({ token, id, onGone }: { token: string; id: number; onGone?: () => void }) {
  const { t } = useTranslation();
  const q = useGuestSession(token, id);
  const [override, setOverride] = useState<ParkingSession | null>(null);
  const running = q.data?.Status === 'Active';
  useEffect(() => {
    if (running) guestSessionStore.set({ SessionId: id, GuestToken: token, ExpiresAt: tokenExpiry(token) });
  }, [running, id, token]);
  // A kept session the server no longer shows (the token expired): forget it, back to the form.
  // (Not when the network failed: offline, the session is still there.)
  const failed = q.error instanceof ApiError && (q.error.status === 401 || q.error.status === 404);
  useEffect(() => {
    if (failed && onGone) {
      guestSessionStore.forget(id);
      onGone();
    }
  }, [failed, onGone, id]);
  return (
    <Loaded
      query={q}
      skeleton={<Skeleton rows={2} className="h-32" />}
      failed={t('This parking session was not found.')}
    >
      {(data) => (
        <GuestSession
          token={token}
          session={override ?? data}
          offset={clockOffset(data.ServerTime, q.dataUpdatedAt)}
          onChange={setOverride}
        />
      )}
    </Loaded>
  );
}

/**
 * /QuickParkRegister: park without an account. A verified mobile number, the zone
 * number, plate and state, a duration, a card; the receipt goes to the phone with a link back here.
 * `states` comes from the route (the shared states list).
 */
export function QuickParkScreen({ states }: { states: string[] }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const linkedId = useIdParam('session');
  const linkedToken = params.get('token');
  const [guest, setGuest] = useState<GuestToken | null>(null);
  const [quote, setQuote] = useState<GuestQuote | null>(null);
  const [paid, setPaid] = useState<{ session: ParkingSession; at: number } | null>(null);
  // A live session this browser paid for or opened, back after a reload or a closed tab.
  const [kept, setKept] = useState(() => guestSessionStore.get());

  let body;
  if (linkedId !== null && linkedToken) body = <LinkedSession token={linkedToken} id={linkedId} />;
  else if (kept && !paid)
    body = <LinkedSession token={kept.GuestToken} id={kept.SessionId} onGone={() => setKept(null)} />;
  else if (!guest) body = <VerifyPhone onVerified={setGuest} />;
  else if (paid)
    body = (
      <GuestSession
        token={guest.GuestToken}
        session={paid.session}
        offset={clockOffset(paid.session.ServerTime, paid.at)}
        onChange={(s) => setPaid({ session: s, at: paid.at })}
      />
    );
  else if (!quote)
    body = (
      <ParkingDetails
        token={guest.GuestToken}
        zoneNumber={params.get('number') ?? ''}
        states={states}
        onQuote={setQuote}
      />
    );
  else
    body = (
      <PayByCard
        token={guest.GuestToken}
        quote={quote}
        onPaid={(s) => {
          guestSessionStore.set({ SessionId: s.SessionId, GuestToken: guest.GuestToken, ExpiresAt: guest.ExpiresAt });
          setPaid({ session: s, at: Date.now() });
        }}
      />
    );

  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PageHeader title={t('Quick Park')} back={paths.parkit} />
      <div className="flex flex-col gap-4 p-4">
        {!guest && !kept && linkedId === null && (
          <p className="text-sm text-slate-600">
            {t('Park without an account: your mobile number, your plate and a card.')}
          </p>
        )}
        {body}
      </div>
    </main>
  );
}

import type { ComponentType } from 'react';
import BellRing from 'lucide-react/icons/bell-ring';
import ChevronRight from 'lucide-react/icons/chevron-right';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import type { ActiveSessions as ActiveSessionList, ParkingSession } from '@parkit/contract';
import { formatTime } from '../../../lib/dates.ts';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { href, paths } from '../../../config/paths.ts';
import { useActiveSessions } from '../api/get-active-sessions.ts';
import { useCountdown } from '../../../lib/use-countdown.ts';
import { useReminderMinutes } from '../../../lib/reminder-settings.ts';
import { clockOffset, formatCountdown, deviceEnd } from '../lib/session-time.ts';

/** `lead`: the member's reminder minutes (10, 15 or 30): from then on the session is ending soon. */
type SessionProps = { session: ParkingSession; offset: number; lead: number };

/** Every running session drawn by `Item`, each counting down on the server's clock. */
function eachSession(
  active: { data: ActiveSessionList; dataUpdatedAt: number },
  lead: number,
  Item: ComponentType<SessionProps>,
) {
  const offset = clockOffset(active.data.ServerTime, active.dataUpdatedAt);
  return active.data.Sessions.map((s) => <Item key={s.SessionId} session={s} offset={offset} lead={lead} />);
}

function ActiveSessionCard({ session, offset, lead }: SessionProps) {
  const { t } = useTranslation();
  const left = useCountdown(deviceEnd(session.EndsAt, offset));
  const soon = left > 0 && left <= lead * 60;
  return (
    <li>
      <Link
        to={href(paths.parkDetails, { id: session.SessionId })}
        aria-label={t('Zone {{zone}}, {{plate}}: {{left}} left', {
          zone: session.ZoneNumber,
          plate: session.PlateNumber.toUpperCase(),
          left: formatCountdown(left),
        })}
        className="flex items-center gap-3 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200 hover:bg-brand-50"
      >
        <div className="min-w-0 flex-1">
          <p className="text-sm text-slate-600">{t('Zone {{zone}}', { zone: session.ZoneNumber })}</p>
          <p className="text-lg font-bold tracking-wider break-all text-slate-900">
            {session.PlateNumber.toUpperCase()}
          </p>
          <p className="text-sm text-slate-600">{t('Ends at {{time}}', { time: formatTime(session.EndsAt) })}</p>
        </div>
        <p className={`text-2xl font-bold tabular-nums ${soon ? 'text-amber-700' : 'text-brand-800'}`}>
          {formatCountdown(left)}
        </p>
        <ChevronRight className="size-5 text-slate-400" aria-hidden />
      </Link>
    </li>
  );
}

/** /homepage: every running session with its live countdown; a tap opens /parkdetails. */
export function ActiveSessions() {
  const { t } = useTranslation();
  const active = useActiveSessions();
  const lead = useReminderMinutes(true);
  return (
    <Loaded
      query={active}
      skeleton={<Skeleton rows={1} className="h-24" />}
      failed={t('Your sessions could not be loaded.')}
    >
      {(data) =>
        data.Sessions.length > 0 && (
          <ul className="flex flex-col gap-2">
            {eachSession({ data, dataUpdatedAt: active.dataUpdatedAt }, lead, ActiveSessionCard)}
          </ul>
        )
      }
    </Loaded>
  );
}

function Reminder({ session, offset, lead }: SessionProps) {
  const { t } = useTranslation();
  const left = useCountdown(deviceEnd(session.EndsAt, offset));
  if (left === 0 || left > lead * 60) return null;
  return (
    <Link
      to={href(paths.parkDetails, { id: session.SessionId })}
      role="status"
      className="flex items-center gap-3 bg-amber-100 px-4 py-3 text-sm font-medium text-amber-950 hover:bg-amber-200"
    >
      <BellRing className="size-5 shrink-0" aria-hidden />
      <span>
        {t('Your parking in zone {{zone}} ends in {{n}} minutes.', {
          zone: session.ZoneNumber,
          n: Math.ceil(left / 60),
        })}
      </span>
    </Link>
  );
}

/**
 * The in-app reminder: a banner on every screen from the member's reminder minutes
 * before a session's end (10, 15 or 30, chosen on the profile: docs/product.md#reminders).
 */
export function ParkingReminderBanner({ enabled }: { enabled: boolean }) {
  const active = useActiveSessions(enabled);
  const lead = useReminderMinutes(enabled);
  if (!enabled || !active.data) return null;
  return (
    <div className="sticky top-0 z-20">
      {eachSession({ data: active.data, dataUpdatedAt: active.dataUpdatedAt }, lead, Reminder)}
    </div>
  );
}

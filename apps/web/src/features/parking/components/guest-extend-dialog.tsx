import { useTranslation } from '../../../lib/i18n.ts';
import type { ParkingSession } from '@parkit/contract';
import { ApiError } from '../../../lib/api-client.ts';
import { useExtendGuest, useGuestExtendQuote } from '../api/quick-park.ts';
import { ExtendFrame, useExtendMinutes } from './extend-frame.tsx';

/** Quick Park Extend: more minutes up to the maximum stay, paid by the same card. */
export function GuestExtendDialog({
  token,
  session,
  onExtended,
  onClose,
}: {
  token: string;
  session: ParkingSession;
  onExtended: (s: ParkingSession) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const time = useExtendMinutes(session.MaxStayMinutes - session.DurationMinutes);
  const quote = useGuestExtendQuote(
    token,
    time.minutes > 0 ? { SessionId: session.SessionId, DurationMinutes: time.minutes } : null,
  );
  const pay = useExtendGuest();
  return (
    <ExtendFrame
      description={t('Paid by the card you parked with.')}
      time={time}
      quote={quote}
      pay={pay}
      onPay={(q) =>
        pay.mutate(
          { token, quoteId: q.QuoteId },
          {
            onSuccess: (s) => {
              onExtended(s);
              onClose();
            },
            // A spent or stale price: show the new one.
            onError: (err) => {
              if (err instanceof ApiError && err.status === 409) void quote.refetch();
            },
          },
        )
      }
      onClose={onClose}
    />
  );
}

import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import type { ParkingSession, Quote } from '@parkit/contract';
import { useQuote } from '../api/get-quote.ts';
import { usePayQuote } from '../api/pay-parking.ts';
import { ExtendFrame, useExtendMinutes } from './extend-frame.tsx';
import { fundsCover, FundsNotice } from './quote-summary.tsx';

/** Extend: more minutes up to the maximum stay, priced from the current end, without a second fee. */
export function ExtendDialog({
  session,
  room,
  onClose,
}: {
  session: ParkingSession;
  room: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const time = useExtendMinutes(room);
  const quote = useQuote(time.minutes > 0 ? { SessionId: session.SessionId, DurationMinutes: time.minutes } : null);
  const pay = usePayQuote('Extend');
  const [confirmOver, setConfirmOver] = useState(false);
  const q = quote.data;
  const submit = (q: Quote) => {
    if (q.OverMaxPayment && !confirmOver) {
      setConfirmOver(true);
      return;
    }
    pay.mutate({ QuoteId: q.QuoteId, ...(q.OverMaxPayment ? { ConfirmOverMax: true } : {}) }, { onSuccess: onClose });
  };
  return (
    <ExtendFrame time={time} quote={quote} pay={pay} payable={!!q && fundsCover(q)} onPay={submit} onClose={onClose}>
      {q && <FundsNotice quote={q} />}
      {confirmOver && (
        <p role="alert" className="text-sm text-amber-900">
          {t('This is more than your Max Payment Amount. Please confirm the payment.')}
        </p>
      )}
    </ExtendFrame>
  );
}

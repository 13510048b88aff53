import { useCallback, useRef } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import type { ParkingSession } from '@parkit/contract';
import { ApiError } from '../../../lib/api-client.ts';
import { ExpressPay } from '../../../components/payments/express-pay.tsx';
import { useExtendGuest, useGuestExtendQuote, useGuestPayment } from '../api/quick-park.ts';
import { ExtendFrame, useExtendMinutes } from './extend-frame.tsx';

/**
 * Quick Park Extend: more minutes up to the maximum stay, paid by the same card; or, when an express
 * wallet paid the session (it keeps no card: the quote's ExpressRequired), by the wallet again
 * (ExpressPay, as Quick Park's Start offers it).
 */
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
  const payment = useGuestPayment(token);
  const key = payment.data?.PublishableKey ?? null;
  const publishableKey = useCallback(async () => key, [key]);
  // One payment at a time: a second tap would only find the quote spent.
  const paying = useRef(false);
  const q = quote.data;
  const express = q?.ExpressRequired === true;
  const extend = (quoteId: string, expressToken?: string) =>
    pay.mutateAsync(
      { token, quoteId, ...(expressToken ? { expressToken } : {}) },
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
    );
  return (
    <ExtendFrame
      description={
        express ? t('Pay the extension with Apple Pay or Google Pay') : t('Paid by the card you parked with.')
      }
      time={time}
      quote={quote}
      pay={pay}
      cardPay={!express}
      onPay={(p) => void extend(p.QuoteId).catch(() => undefined)}
      onClose={onClose}
    >
      {express && q && payment.data && (
        <ExpressPay
          provider={payment.data.PaymentProvider}
          publishableKey={publishableKey}
          currency={payment.data.Currency}
          amountCents={Math.round(q.TotalAmount * 100)}
          ready={async () => !paying.current && !quote.isFetching}
          onToken={async (expressToken) => {
            paying.current = true;
            try {
              await extend(q.QuoteId, expressToken);
            } catch {
              // The refusal shows above the buttons (pay.error).
            } finally {
              paying.current = false;
            }
          }}
        />
      )}
    </ExtendFrame>
  );
}

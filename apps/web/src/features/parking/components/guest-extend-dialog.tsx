import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { formatMoney, type ParkingSession } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorLine } from '../../../components/ui/error-line.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useExtendGuest, useGuestExtendQuote } from '../api/quick-park.ts';
import { durationChoices } from '../lib/session-time.ts';
import { DurationPicker } from './duration-picker.tsx';
import { QuoteSummary } from './quote-summary.tsx';

/** Quick Park Extend (issue 11): more minutes up to the maximum stay, paid by the same card. */
export function GuestExtendDialog({ token, session, onExtended, onClose }: { token: string; session: ParkingSession; onExtended: (s: ParkingSession) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const choices = durationChoices(session.MaxStayMinutes - session.DurationMinutes);
  const [minutes, setMinutes] = useState(choices.includes(30) ? 30 : (choices[0] ?? 0));
  const quote = useGuestExtendQuote(token, minutes > 0 ? { SessionId: session.SessionId, DurationMinutes: minutes } : null);
  const pay = useExtendGuest();
  const q = quote.data;
  const total = q ? `$${formatMoney(q.TotalAmount)}` : '';
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t('Extend')} description={t('Paid by the card you parked with.')}>
      <DurationPicker choices={choices} value={minutes} onChange={setMinutes} label={t('How much more time?')} />
      {q ? <QuoteSummary quote={q} extension /> : quote.isError ? null : <Skeleton rows={1} className="h-28" />}
      <ErrorLine error={quote.error} fallback={t('The price could not be loaded.')} />
      <ErrorLine error={pay.error} fallback={t('The payment failed.')} />
      <Button
        loading={pay.isPending}
        disabled={!q || quote.isFetching}
        onClick={() =>
          q &&
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
      >
        {q ? t('Pay {{total}}', { total }) : t('Pay')}
      </Button>
      <Button variant="secondary" onClick={onClose}>
        {t('Cancel')}
      </Button>
    </Dialog>
  );
}

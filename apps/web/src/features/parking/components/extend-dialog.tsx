import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { formatMoney, type ParkingSession } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { ErrorLine } from '../../../components/ui/error-line.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useQuote } from '../api/get-quote.ts';
import { usePayQuote } from '../api/pay-parking.ts';
import { durationChoices } from '../lib/session-time.ts';
import { DurationPicker } from './duration-picker.tsx';
import { fundsCover, FundsNotice, QuoteSummary } from './quote-summary.tsx';

/** Extend: more minutes up to the maximum stay, priced from the current end, without a second fee. */
export function ExtendDialog({ session, room, onClose }: { session: ParkingSession; room: number; onClose: () => void }) {
  const { t } = useTranslation();
  const choices = durationChoices(room);
  const [minutes, setMinutes] = useState(choices.includes(30) ? 30 : (choices[0] ?? 0));
  const quote = useQuote(minutes > 0 ? { SessionId: session.SessionId, DurationMinutes: minutes } : null);
  const pay = usePayQuote('Extend');
  const [confirmOver, setConfirmOver] = useState(false);
  const q = quote.data;
  const submit = () => {
    if (!q) return;
    if (q.OverMaxPayment && !confirmOver) {
      setConfirmOver(true);
      return;
    }
    pay.mutate({ QuoteId: q.QuoteId, ...(q.OverMaxPayment ? { ConfirmOverMax: true } : {}) }, { onSuccess: onClose });
  };
  const total = q ? `$${formatMoney(q.TotalAmount)}` : '';
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t('Extend')}>
      <DurationPicker choices={choices} value={minutes} onChange={setMinutes} label={t('How much more time?')} />
      {q ? <QuoteSummary quote={q} extension /> : quote.isError ? null : <Skeleton rows={1} className="h-28" />}
      <ErrorLine error={quote.error} fallback={t('The price could not be loaded.')} />
      {q && <FundsNotice quote={q} />}
      {confirmOver && <p role="alert" className="text-sm text-amber-900">{t('This is more than your Max Payment Amount. Please confirm the payment.')}</p>}
      <ErrorLine error={pay.error} fallback={t('The payment failed.')} />
      <Button loading={pay.isPending} disabled={!q || !fundsCover(q) || quote.isFetching} onClick={submit}>
        {q ? t('Pay {{total}}', { total }) : t('Pay')}
      </Button>
      <Button variant="secondary" onClick={onClose}>
        {t('Cancel')}
      </Button>
    </Dialog>
  );
}

import { useState, type ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { type Quote } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { ErrorLine } from '../../../components/ui/error-line.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { durationChoices } from '../lib/session-time.ts';
import { DurationPicker } from './duration-picker.tsx';
import { QuoteSummary } from './quote-summary.tsx';
import { useMoney } from '../../../lib/money.ts';

/** How much more time an Extend may add (up to `room` minutes): the steps, and 30 min first where it fits. */
export function useExtendMinutes(room: number) {
  const choices = durationChoices(room);
  const [minutes, setMinutes] = useState(choices.includes(30) ? 30 : (choices[0] ?? 0));
  return { choices, minutes, setMinutes };
}

/**
 * The Extend dialog of a member's session and of a Quick Park one: the added time, its price,
 * what was refused, Pay and Cancel. `children` go between the price and the payment's refusal.
 */
export function ExtendFrame({
  description,
  time,
  quote,
  pay,
  payable = true,
  cardPay = true,
  onPay,
  onClose,
  children,
}: {
  description?: string;
  time: ReturnType<typeof useExtendMinutes>;
  quote: { data?: Quote | undefined; isError: boolean; error: unknown; isFetching: boolean };
  pay: { error: unknown; isPending: boolean };
  /** Besides a price being there: whether it may be paid now. */
  payable?: boolean;
  /** False when there is no card to pay with (an express wallet in `children` pays instead): no Pay button. */
  cardPay?: boolean;
  onPay: (q: Quote) => void;
  onClose: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const q = quote.data;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()} title={t('Extend')} description={description}>
      <DurationPicker
        choices={time.choices}
        value={time.minutes}
        onChange={time.setMinutes}
        label={t('How much more time?')}
      />
      {q ? <QuoteSummary quote={q} extension /> : quote.isError ? null : <Skeleton rows={1} className="h-28" />}
      <ErrorLine error={quote.error} fallback={t('The price could not be loaded.')} />
      {children}
      <ErrorLine error={pay.error} fallback={t('The payment failed.')} />
      {cardPay && (
        <Button loading={pay.isPending} disabled={!q || !payable || quote.isFetching} onClick={() => q && onPay(q)}>
          {q ? t('Pay {{total}}', { total: money(q.TotalAmount) }) : t('Pay')}
        </Button>
      )}
      <Button variant="secondary" onClick={onClose}>
        {t('Cancel')}
      </Button>
    </Dialog>
  );
}

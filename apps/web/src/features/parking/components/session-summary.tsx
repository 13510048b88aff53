import { useTranslation } from '../../../lib/i18n.ts';
import { type ParkingSession, type SessionReceipt } from '@parkit/contract';
import { formatDateLong, formatTime } from '../../../lib/dates.ts';
import { Panel } from '../../../components/ui/panel.tsx';
import { useMoney } from '../../../lib/money.ts';

function Row({ label, value }: { label: string; value: string }) {
  return (
    <div className="flex justify-between gap-4 py-2">
      <dt className="text-slate-600">{label}</dt>
      <dd className="text-end font-semibold break-words text-slate-900">{value}</dd>
    </div>
  );
}

/**
 * The spec's session summary ("Confirm Location details", docs/product.md#screens), now real: its labels letter
 * for letter. Used by /ClosingReceipt and by Past Parkings' /ParkingSessionDetail.
 */
export function SessionSummary({
  session: s,
}: {
  session: ParkingSession & Partial<Pick<SessionReceipt, 'InitialMinutes' | 'Payments'>>;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const yesNo = (v: boolean) => (v ? t('Yes') : t('No'));
  const when = (iso: string) => `${formatDateLong(iso)}, ${formatTime(iso)}`;
  // What was paid along the way (docs/product.md#the-receipt): the start, each extension, a zone
  // change, then the unused time given back; Amount Paid is what they come to.
  const paid = (s.Payments ?? []).map((p) => {
    if (p.Kind === 'Start')
      return {
        label: t('Paid at the start ({{minutes}} min)', { minutes: s.InitialMinutes ?? 0 }),
        amount: money(p.Amount),
      };
    if (p.Kind === 'Extension')
      return { label: t('Extension ({{time}})', { time: formatTime(p.PaidAt) }), amount: money(p.Amount) };
    return {
      label: t('Zone change'),
      amount: p.Amount < 0 ? `-${money(-p.Amount)}` : money(p.Amount),
    };
  });
  return (
    <article aria-label={t('Session summary')} className="flex flex-col gap-4">
      <section className="rounded-2xl border border-slate-200 bg-white p-4">
        <p className="text-sm text-slate-600">{t('Session Id')}</p>
        <p className="text-xl font-bold text-slate-900" data-testid="session-id">
          {s.SessionId}
        </p>
        <p className="mt-2 text-sm font-medium break-words text-slate-800">{`${s.Address}, ${s.City}, ${s.State}`}</p>
        <p className="text-sm text-slate-600">{`${formatDateLong(s.StartedAt)}, ${formatTime(s.StartedAt)}`}</p>
        <dl className="mt-2 divide-y divide-slate-100 text-sm">
          <Row label={t('Zone')} value={s.ZoneNumber} />
          <Row label={t('Started')} value={when(s.StartedAt)} />
          {s.EndedAt ? (
            <Row label={t('Ended')} value={when(s.EndedAt)} />
          ) : (
            <Row label={t('Ends')} value={when(s.EndsAt)} />
          )}
          <Row label={t('Duration (Minutes)')} value={String(s.DurationMinutes)} />
          {paid.map((p, i) => (
            <Row key={i} label={p.label} value={p.amount} />
          ))}
          {s.RefundedAmount > 0 && <Row label={t('Refund of unused time')} value={`-${money(s.RefundedAmount)}`} />}
          <Row label={t('Amount Paid')} value={money(s.AmountPaid)} />
          <Row label={t('Paid Via')} value={t(s.PaidVia)} />
          <Row label={t('Payment Status')} value={t(s.PaymentStatus)} />
        </dl>
      </section>
      <Panel title={t('Vehicle Information')}>
        <dl className="divide-y divide-slate-100 text-sm">
          <Row label={t('Vehicle Make')} value={s.VehicleMake.toUpperCase()} />
          <Row label={t('Model')} value={s.VehicleModel.toUpperCase()} />
          <Row label={t('Vehicle Plate #')} value={s.PlateNumber.toUpperCase()} />
          <Row label={t('State')} value={s.PlateState} />
          <Row label={t('Auto Session Used')} value={yesNo(s.AutoSessionUsed)} />
          <Row label={t('Auto Extended Used')} value={yesNo(s.AutoExtendedUsed)} />
        </dl>
      </Panel>
    </article>
  );
}

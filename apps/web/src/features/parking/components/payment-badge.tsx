import CircleDollarSign from 'lucide-react/icons/circle-dollar-sign';
import CircleCheck from 'lucide-react/icons/circle-check';
import { useTranslation } from '../../../lib/i18n.ts';
import type { Zone } from '@parkit/contract';
import { paymentLabel } from '../lib/zone-format.ts';

type Props = Pick<Zone, 'PaymentRequiredNow' | 'PaidUntilNow' | 'PaidDays' | 'PaidFrom' | 'PaidUntil'>;

/** "Free now" (green) or "Paid until 18:00" (amber): what parking here costs at this moment. */
export function PaymentBadge(zone: Props) {
  const { t } = useTranslation();
  const paid = zone.PaymentRequiredNow;
  const Icon = paid ? CircleDollarSign : CircleCheck;
  return (
    <span
      data-testid="payment-badge"
      className={`inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold ${
        paid
          ? 'bg-amber-50 text-amber-900 ring-1 ring-amber-200'
          : 'bg-emerald-50 text-emerald-800 ring-1 ring-emerald-200'
      }`}
    >
      <Icon className="size-3.5" aria-hidden />
      {paymentLabel(zone, t)}
    </span>
  );
}

import { useAccountDetails } from '../../lib/account-details.ts';
import { useTranslation } from '../../lib/i18n.ts';
import { useMoney } from '../../lib/money.ts';

/**
 * Where a permit's or a citation's payment comes from: the wallet (undefined) or the
 * member's default saved card (its PaymentMethodId), the Pay request's PaymentMethodId. Radio
 * cards as the vehicle choice of Park draws them; nothing is shown without a saved card, when the
 * wallet is the only source.
 */
export function PayFrom({
  name,
  value,
  onChange,
}: {
  /** The radio group's name, one per payment on the page. */
  name: string;
  value: number | undefined;
  onChange: (paymentMethodId: number | undefined) => void;
}) {
  const { t } = useTranslation();
  const money = useMoney();
  const details = useAccountDetails();
  const card = details.data?.DefaultCard ?? null;
  if (!card) return null;
  const options = [
    {
      id: undefined,
      label: t('Wallet'),
      hint: t('Balance: {{balance}}', { balance: money(details.data?.Balance ?? 0) }),
    },
    { id: card.PaymentMethodId, label: t('Card'), hint: `${card.Brand} •••• ${card.Last4}` },
  ];
  return (
    <fieldset className="mt-3">
      <legend className="mb-2 text-sm font-semibold text-slate-700">{t('Pay with')}</legend>
      <div role="radiogroup" aria-label={t('Pay with')} className="flex flex-wrap gap-2">
        {options.map((o) => {
          const checked = o.id === value;
          return (
            <label
              key={o.label}
              className={`flex min-w-36 flex-1 cursor-pointer items-center gap-3 rounded-2xl border bg-white p-3 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-brand-700 ${checked ? 'border-brand-700 ring-1 ring-brand-700' : 'border-slate-200'}`}
            >
              <input type="radio" name={name} className="sr-only" checked={checked} onChange={() => onChange(o.id)} />
              <span className="min-w-0 flex-1">
                <span className="block font-semibold text-slate-900">{o.label}</span>
                <span className="block text-sm break-words text-slate-600">{o.hint}</span>
              </span>
              <span
                aria-hidden
                className={`size-5 shrink-0 rounded-full border-2 ${checked ? 'border-brand-700 bg-brand-700 shadow-[inset_0_0_0_3px_white]' : 'border-slate-300'}`}
              />
            </label>
          );
        })}
      </div>
    </fieldset>
  );
}

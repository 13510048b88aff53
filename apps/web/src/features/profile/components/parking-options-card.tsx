import { useTranslation } from '../../../lib/i18n.ts';
import SlidersHorizontal from 'lucide-react/icons/sliders-horizontal';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { Switch } from '../../../components/ui/switch.tsx';
import { useParkingOptions, useUpdateParkingOptions } from '../api/parking-options.ts';
import { MaxPaymentField } from './max-payment-field.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { useMoney } from '../../../lib/money.ts';

type Flag = 'AutoStartParking' | 'AutoExtendParking' | 'MaxPaymentEnabled';

/**
 * Default Parking Options (docs/product.md#screens): three independent switches, each saved to the server
 * as it is flipped (docs/product.md#placeholders-made-real: saved per member, applied by the server).
 */
export function ParkingOptionsCard() {
  const { t } = useTranslation();
  const options = useParkingOptions(true);
  const update = useUpdateParkingOptions();
  const money = useMoney();

  const switches: { field: Flag; label: string; hint: string }[] = [
    {
      field: 'AutoStartParking',
      label: t('Auto Start Parking Session'),
      hint: t('Start a session as soon as you confirm a zone.'),
    },
    {
      field: 'AutoExtendParking',
      label: t('Auto Extend Parking Session'),
      hint: t('Add time automatically before a session runs out.'),
    },
    {
      field: 'MaxPaymentEnabled',
      label: t('Max Payment Amount'),
      hint: t('Never pay more than this for one session.'),
    },
  ];

  return (
    <section
      aria-labelledby="parking-options-title"
      className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
    >
      <h2 id="parking-options-title" className="mb-2 flex items-center gap-2 text-base font-semibold text-slate-900">
        <SlidersHorizontal className="size-5 text-brand-700" aria-hidden />
        {t('Default Parking Options')}
      </h2>
      <Loaded
        query={options}
        skeleton={<Skeleton rows={3} className="h-8" />}
        failed={t('Your parking options could not be loaded.')}
        compact
      >
        {(data) => (
          <ul className="divide-y divide-slate-100">
            {switches.map(({ field, label, hint }) => (
              <li key={field} className="py-1">
                <Switch label={label} checked={data[field]} onCheckedChange={(v) => update.mutate({ [field]: v })} />
                <p className="-mt-1 pb-2 text-xs text-slate-500">{hint}</p>
                {field === 'MaxPaymentEnabled' &&
                  (data.MaxPaymentEnabled ? (
                    <MaxPaymentField options={data} />
                  ) : (
                    // Off, the amount still shows: the driver sees what switching it on means.
                    <p className="-mt-1 pb-2 text-xs text-slate-700">
                      {t('Limit when on: {{amount}} per session', { amount: money(data.MaxPaymentAmount) })}
                    </p>
                  ))}
              </li>
            ))}
          </ul>
        )}
      </Loaded>
    </section>
  );
}

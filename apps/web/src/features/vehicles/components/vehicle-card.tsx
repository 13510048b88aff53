import Pencil from 'lucide-react/icons/pencil';
import Trash2 from 'lucide-react/icons/trash';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import type { Vehicle } from '@parkit/contract';
import { href, paths } from '../../../config/paths.ts';

/** One card of My Vehicles (docs/product.md#screens): the numbered title, four rows, edit and delete. */
export function VehicleCard({ vehicle, n, onDelete }: { vehicle: Vehicle; n: number; onDelete: () => void }) {
  const { t } = useTranslation();
  const title = t('Vehicle {{n}}', { n });
  const rows = [
    [t('Vehicle Make'), vehicle.VehicleMake],
    [t('Model'), vehicle.VehicleModel],
    [t('Vehicle Plate #'), vehicle.PlateNumber],
    [t('State'), vehicle.PlateState],
  ] as const;
  const icon = 'grid size-11 place-items-center rounded-full text-brand-800 hover:bg-brand-50';
  return (
    <article aria-label={title} className="rounded-2xl border border-slate-200 bg-white p-4 shadow-sm">
      <div className="flex items-center justify-between gap-2">
        <h2 className="text-base font-bold text-slate-900">{title}</h2>
        <div className="-me-2 flex">
          <Link
            to={href(paths.addVehicles, { id: vehicle.VehicleID })}
            aria-label={t('Edit vehicle {{n}}', { n })}
            className={icon}
          >
            <Pencil className="size-5" aria-hidden />
          </Link>
          <button
            type="button"
            onClick={onDelete}
            aria-label={t('Delete vehicle {{n}}', { n })}
            className={`${icon} text-red-700 hover:bg-red-50`}
          >
            <Trash2 className="size-5" aria-hidden />
          </button>
        </div>
      </div>
      <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="contents">
            <dt className="text-slate-500">{label}</dt>
            <dd className="text-end font-semibold break-all text-slate-900">{value.toUpperCase()}</dd>
          </div>
        ))}
      </dl>
    </article>
  );
}

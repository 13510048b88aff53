import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { VEHICLE_MESSAGES } from '@parkit/contract';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { useVehicles } from '../api/get-vehicles.ts';
import { VehicleForm } from './vehicle-form.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';

/** Edit mode takes the vehicle from the list by VehicleID (docs/product.md#states). */
function EditVehicle({ id }: { id: string }) {
  const { t } = useTranslation();
  const vehicles = useVehicles();
  return (
    <Loaded
      query={vehicles}
      skeleton={<Skeleton rows={6} className="h-11" />}
      failed={t('Your vehicles could not be loaded.')}
    >
      {(list) => {
        const vehicle = list.find((v) => String(v.VehicleID) === id);
        if (!vehicle) {
          return (
            <div role="alert" className="flex flex-col items-center gap-3 py-10 text-center text-sm text-slate-600">
              <p>{t(VEHICLE_MESSAGES.vehicleNotFound)}</p>
              <Link to={paths.myVehicles} className="font-semibold text-brand-700 underline">
                {t('My Vehicles')}
              </Link>
            </div>
          );
        }
        return <VehicleForm key={vehicle.VehicleID} vehicle={vehicle} />;
      }}
    </Loaded>
  );
}

/** Add mode (no id) or edit mode (id present). */
export function VehicleEditor({ id, next }: { id: string | null; next?: string | undefined }) {
  return id ? <EditVehicle id={id} /> : <VehicleForm next={next} />;
}

import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { MAX_VEHICLES, VEHICLE_MESSAGES, type Vehicle } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { useVehicles } from '../api/get-vehicles.ts';
import { DeleteVehicleDialog } from './delete-vehicle-dialog.tsx';
import { VehicleCard } from './vehicle-card.tsx';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';

function AddVehicleLink() {
  const { t } = useTranslation();
  return (
    <ButtonLink to={paths.addVehicles} block>
      {t('+ Add Vehicle')}
    </ButtonLink>
  );
}

/** My Vehicles' body (docs/product.md#screens and #states): loading, failed, empty, or the numbered cards. */
export function VehicleList() {
  const { t } = useTranslation();
  const vehicles = useVehicles();
  const [deleting, setDeleting] = useState<{ vehicle: Vehicle; n: number } | null>(null);

  // The spec leaves the list blank on a failure; a way to try again is the least a driver needs.
  return (
    <Loaded
      query={vehicles}
      skeleton={<Skeleton rows={2} className="h-36" />}
      failed={t('Your vehicles could not be loaded.')}
    >
      {(list) => {
        const full = list.length >= MAX_VEHICLES;
        return (
          <>
            {list.length === 0 ? (
              <p className="py-8 text-center text-sm text-slate-600">{t('You have not added a vehicle yet.')}</p>
            ) : (
              <ul className="flex flex-col gap-3">
                {list.map((v, i) => (
                  <li key={v.VehicleID}>
                    <VehicleCard vehicle={v} n={i + 1} onDelete={() => setDeleting({ vehicle: v, n: i + 1 })} />
                  </li>
                ))}
              </ul>
            )}
            <div className="mt-4">
              {full ? (
                <>
                  <Button block disabled>
                    {t('+ Add Vehicle')}
                  </Button>
                  <p className="mt-2 text-center text-xs text-slate-500">{t(VEHICLE_MESSAGES.tooManyVehicles)}</p>
                </>
              ) : (
                <AddVehicleLink />
              )}
            </div>
            <DeleteVehicleDialog
              vehicle={deleting?.vehicle ?? null}
              n={deleting?.n ?? 0}
              onClose={() => setDeleting(null)}
            />
          </>
        );
      }}
    </Loaded>
  );
}

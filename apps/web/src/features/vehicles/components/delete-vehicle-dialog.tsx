import { useTranslation } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.tsx';
import type { Vehicle } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { useDeleteVehicle } from '../api/delete-vehicle.ts';

/** Removing a vehicle asks first; the dialog stays open until the server answers. */
export function DeleteVehicleDialog({
  vehicle,
  n,
  onClose,
}: {
  vehicle: Vehicle | null;
  n: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const del = useDeleteVehicle();
  const confirm = () => {
    if (!vehicle) return;
    del.mutate(
      { VehicleId: vehicle.VehicleID },
      {
        onSuccess: () => {
          toast.success(t('Vehicle Deleted Successfully'));
          onClose();
        },
      },
    );
  };
  return (
    <Dialog
      open={vehicle !== null}
      onOpenChange={(open) => !open && !del.isPending && onClose()}
      title={t('Delete Vehicle?')}
      description={
        vehicle
          ? t('Vehicle {{n}} ({{plate}}) will be removed from your account.', {
              n,
              plate: vehicle.PlateNumber.toUpperCase(),
            })
          : undefined
      }
    >
      <Button variant="danger" loading={del.isPending} onClick={confirm}>
        {t('Yes, Delete')}
      </Button>
      <Button variant="secondary" disabled={del.isPending} onClick={onClose}>
        {t('Cancel')}
      </Button>
    </Dialog>
  );
}

import { useWatch, type Control, type Path } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.tsx';
import type { z } from 'zod';
import { AddVehicleRequest, type Vehicle } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { paths } from '../../../config/paths.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { useSession } from '../../../lib/session.ts';
import { updateSession } from '../../../lib/session-store.ts';
import { useAddVehicle } from '../api/add-vehicle.ts';
import { useUpdateVehicle } from '../api/update-vehicle.ts';
import { useVehicleColors } from '../api/get-vehicle-colors.ts';
import { useVehicleMakes } from '../api/get-vehicle-makes.ts';
import { useVehicleModels } from '../api/get-vehicle-models.ts';
import { useStates } from '../../../lib/states-query.ts';
import { FormSelect, FormText } from '../../../components/ui/form-fields.tsx';
import { upperOptions, withCurrent, yearOptions } from './select-options.ts';

type Input = z.input<typeof AddVehicleRequest>;
type Output = z.output<typeof AddVehicleRequest>;
const FIELDS: ReadonlyArray<Path<Input>> = [
  'VehicleMake',
  'VehicleModel',
  'PlateNumber',
  'PlateState',
  'VehicleColor',
  'VehicleYear',
];
const YEARS = yearOptions();

/** Edit mode starts from the vehicle as the list has it (docs/product.md#states), names uppercased. */
function initialValues(v: Vehicle | undefined): Input {
  return {
    VehicleMake: v?.VehicleMake.trim().toUpperCase() ?? '',
    VehicleModel: v?.VehicleModel.trim().toUpperCase() ?? '',
    PlateNumber: v?.PlateNumber ?? '',
    PlateState: v?.PlateState.trim().toUpperCase() ?? '',
    VehicleColor: v?.VehicleColor.trim().toUpperCase() ?? '',
    VehicleYear: v?.VehicleYear ?? '',
  };
}

/** A select over a list from the server (docs/product.md#stored-data): names uppercased, the edited vehicle's own value kept. */
function ListSelect({
  control,
  name,
  names,
  ...rest
}: {
  control: Control<Input>;
  name: 'VehicleMake' | 'VehicleModel' | 'PlateState' | 'VehicleColor';
  names: ReadonlyArray<string> | undefined;
  label: string;
  placeholder: string;
  busy?: boolean;
  onValueChange?: () => void;
}) {
  const current = useWatch({ control, name });
  return <FormSelect control={control} name={name} options={withCurrent(upperOptions(names), current)} {...rest} />;
}

/** Add/Edit Vehicle (docs/product.md#screens): six fields, Save, the toasts and where each save leads. */
/** `next`: where a new vehicle's driver returns (e.g. /SelectVehicle to park with it); by default the spec's routes. */
export function VehicleForm({ vehicle, next }: { vehicle?: Vehicle | undefined; next?: string | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const makes = useVehicleMakes();
  const colors = useVehicleColors();
  const states = useStates();
  const add = useAddVehicle();
  const update = useUpdateVehicle();
  const { control, handleSubmit, setValue, setError, submitting } = useSchemaForm<Input, Output>(
    AddVehicleRequest,
    initialValues(vehicle),
  );
  const [make, year] = useWatch({ control, name: ['VehicleMake', 'VehicleYear'] });
  const makeId = makes.data?.find((m) => m.PvValue.trim().toUpperCase() === make)?.PVID;
  const models = useVehicleModels(makeId);

  const session = useSession();

  // A refused submit puts the keyboard on the first field that needs attention: react-hook-form
  // focuses it (shouldFocusError for its own checks, showFormError's shouldFocus for the server's).
  const onSubmit = handleSubmit(async (values) => {
    const hadVehicle = session.isVehicle === true;
    try {
      if (vehicle) await update.mutateAsync({ ...values, VehicleId: vehicle.VehicleID });
      else await add.mutateAsync(values);
    } catch (err) {
      showFormError(err, setError, FIELDS);
      return;
    }
    if (vehicle) {
      toast.success(t('Vehicle Edit Successfully'));
      await navigate(paths.myVehicles);
      return;
    }
    updateSession({ isVehicle: true }); // docs/product.md#states: after a successful add
    toast.success(t('Vehicle Added Successfully'));
    await navigate(next ?? (hadVehicle ? paths.myVehicles : paths.homepage));
  });

  const listsFailed = makes.isError || colors.isError;
  return (
    <form noValidate onSubmit={(e) => void onSubmit(e)} className="flex flex-col gap-4">
      {listsFailed && (
        <div
          role="alert"
          className="flex items-center justify-between gap-3 rounded-xl bg-amber-50 p-3 text-sm text-amber-900"
        >
          <span>{t('Some lists could not be loaded.')}</span>
          <Button variant="secondary" onClick={() => void Promise.all([makes.refetch(), colors.refetch()])}>
            {t('Try again')}
          </Button>
        </div>
      )}
      <ListSelect
        control={control}
        name="VehicleMake"
        label={t('Vehicle Make')}
        placeholder={t('Select Vehicle Make')}
        names={makes.data?.map((m) => m.PvValue)}
        busy={makes.isPending}
        // A new make has other models: the old choice goes, its list loads (docs/product.md#states).
        onValueChange={() => setValue('VehicleModel', '')}
      />
      <ListSelect
        control={control}
        name="VehicleModel"
        label={t('Vehicle Model')}
        placeholder={t('Select Vehicle Modal')}
        names={models.data?.map((m) => m.PvValue)}
        busy={models.isFetching}
      />
      <FormText
        control={control}
        name="PlateNumber"
        label={t('Vehicle Plate #')}
        placeholder={t('Enter Vehicle Plate #')}
        autoCapitalize="characters"
        autoComplete="off"
        spellCheck={false}
        maxLength={20}
      />
      <ListSelect
        control={control}
        name="PlateState"
        label={t('State')}
        placeholder={t('Select State')}
        names={states.data}
      />
      <ListSelect
        control={control}
        name="VehicleColor"
        label={t('Vehicle Color')}
        placeholder={t('Select Vehicle Color')}
        names={colors.data?.map((c) => c.PvDescription)}
        busy={colors.isPending}
      />
      <FormSelect
        control={control}
        name="VehicleYear"
        label={t('Vehicle Year')}
        placeholder={t('Select Year')}
        options={withCurrent(YEARS, String(year ?? ''))}
      />
      <Button type="submit" block loading={submitting} className="mt-2">
        {t('Save')}
      </Button>
    </form>
  );
}

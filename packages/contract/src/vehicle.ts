import { z } from 'zod';
import { MESSAGES, VEHICLE_MESSAGES as M } from './messages.ts';

/** docs/product.md#stored-data: a vehicle as GET /api/Vehicle/List returns it. VehicleYear is a string. */
export const Vehicle = z.object({
  VehicleID: z.number().int(),
  VehicleMake: z.string(),
  VehicleModel: z.string(),
  PlateNumber: z.string(),
  PlateState: z.string(),
  VehicleColor: z.string(),
  VehicleYear: z.string(),
});
export type Vehicle = z.infer<typeof Vehicle>;
export const VehicleList = z.array(Vehicle);

/** Reference lists, field names as the spec has them. */
export const VehicleMakeItem = z.object({ PvValue: z.string(), PVID: z.number().int() });
export const VehicleModelItem = z.object({ PvValue: z.string(), PVID: z.number().int() });
export const VehicleColorItem = z.object({ PvDescription: z.string() });
export type VehicleMakeItem = z.infer<typeof VehicleMakeItem>;
export type VehicleModelItem = z.infer<typeof VehicleModelItem>;
export type VehicleColorItem = z.infer<typeof VehicleColorItem>;
export const StateList = z.array(z.string());

/**
 * An id as a form, a path or a JSON body sends it: a whole number or a string of digits. `Id` alone
 * coerces, so it would take true, [7] or '0x1F' as ids.
 */
export const WireId = z
  .union(
    [
      z.number(),
      z
        .string()
        .trim()
        .regex(/^\d{1,10}$/, 'Must be a number')
        .transform(Number),
    ],
    { error: 'Must be a number' },
  )
  .pipe(z.number().int('Must be a whole number').positive('Must be a positive number').max(2_147_483_647, 'Too large'));

/** GET /api/Vehicle/Models/{makeId}: makeId is the PVID of a make. */
export const VehicleModelsParams = z.object({ makeId: WireId });

export const MAX_VEHICLES = 10;
export const MIN_VEHICLE_YEAR = 1900;
/** Model years run one ahead of the calendar. */
export const maxVehicleYear = (now: Date = new Date()) => now.getFullYear() + 1;

/** A list value: required, and anything too long or with control characters is not on the list. */
const listValue = (required: string, unknown: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(60, unknown)
    // A NUL byte would reach PostgreSQL, which refuses it in text.
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, unknown);

/**
 * What two plates are compared by: letters and digits only, upper-cased ('MH 12-AB 1234' and
 * 'mh12ab1234' are one plate). The server's duplicate check and unique index use the same rule.
 */
export const plateKey = (plate: string) => plate.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** Spaces and dashes as typed (an Indian plate: 'MH 12 AB 1234'), not counted. */
const PLATE_MAX_TYPED = 20;

/**
 * POST /api/Vehicle/Add. Make, model and color are the list values (names, any case); the
 * server resolves them and checks the model belongs to the make. The plate is trimmed and
 * uppercased.
 */
export const AddVehicleRequest = z.object({
  VehicleMake: listValue(M.makeRequired, M.makeUnknown),
  VehicleModel: listValue(M.modelRequired, M.modelUnknown),
  PlateNumber: z
    .string({ error: M.plateRequired })
    .trim()
    .min(1, M.plateRequired)
    .transform((p) => p.toUpperCase().replace(/\s+/g, ' '))
    // 2 to 10 letters and digits; spaces and dashes are kept as typed and not counted.
    .pipe(
      z
        .string()
        .max(PLATE_MAX_TYPED, M.plateFormat)
        .regex(/^[A-Z0-9 -]+$/, M.plateFormat)
        .refine((p) => plateKey(p).length >= 2 && plateKey(p).length <= 10, M.plateFormat),
    ),
  PlateState: z
    .string({ error: M.stateRequired })
    .trim()
    .min(1, M.stateRequired)
    .regex(/^[A-Za-z]{2}$/, MESSAGES.stateUnknown)
    .transform((s) => s.toUpperCase()),
  VehicleColor: listValue(M.colorRequired, M.colorUnknown),
  VehicleYear: z
    .union([z.string(), z.number()], { error: M.yearRequired })
    .transform((y) => String(y).trim())
    .pipe(
      z
        .string()
        .min(1, M.yearRequired)
        .regex(/^\d{4}$/, M.yearRange),
    )
    .refine((y) => Number(y) >= MIN_VEHICLE_YEAR && Number(y) <= maxVehicleYear(), M.yearRange),
});
export type AddVehicleRequest = z.input<typeof AddVehicleRequest>;

export const UpdateVehicleRequest = AddVehicleRequest.extend({ VehicleId: WireId });
export type UpdateVehicleRequest = z.input<typeof UpdateVehicleRequest>;

export const DeleteVehicleRequest = z.object({ VehicleId: WireId });
export type DeleteVehicleRequest = z.input<typeof DeleteVehicleRequest>;

/** Default Parking Options: three independent switches, the last with an amount. */
export const ParkingOptions = z.object({
  AutoStartParking: z.boolean(),
  AutoExtendParking: z.boolean(),
  MaxPaymentEnabled: z.boolean(),
  /** Dollars, two decimals, 1.00 to 500.00; kept when the switch is off. */
  MaxPaymentAmount: z.number(),
});
export type ParkingOptions = z.infer<typeof ParkingOptions>;

export const UpdateParkingOptionsRequest = z
  .object({
    AutoStartParking: z.boolean({ error: 'AutoStartParking must be true or false' }),
    AutoExtendParking: z.boolean({ error: 'AutoExtendParking must be true or false' }),
    MaxPaymentEnabled: z.boolean({ error: 'MaxPaymentEnabled must be true or false' }),
    MaxPaymentAmount: z
      .number({ error: 'MaxPaymentAmount must be a number' })
      .min(1, 'MaxPaymentAmount must be from 1.00 to 500.00')
      .max(500, 'MaxPaymentAmount must be from 1.00 to 500.00')
      .refine((v) => Math.round(v * 100) === Number((v * 100).toFixed(6)), 'MaxPaymentAmount has at most two decimals'),
  })
  .partial()
  .refine((o) => Object.keys(o).length > 0, 'Nothing to update');
export type UpdateParkingOptionsRequest = z.input<typeof UpdateParkingOptionsRequest>;

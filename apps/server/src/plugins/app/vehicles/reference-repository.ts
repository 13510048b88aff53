import { asc, eq, sql } from 'drizzle-orm';
import {
  MESSAGES,
  VEHICLE_MESSAGES,
  type FieldError,
  type VehicleColorItem,
  type VehicleMakeItem,
  type VehicleModelItem,
} from '@parkit/contract';
import type { Executor } from '../../../db/client.ts';
import { usStates, vehicleColors, vehicleMakes, vehicleModels } from '../../../db/schema/index.ts';

/**
 * Cache-Control of the reference list routes. The lists change only with a migration (a deploy),
 * so browsers and shared caches may keep them an hour. The routes are public on purpose: the lists
 * reveal nothing about anyone, and a guest parking with a plate (/QuickParkRegister) needs them
 * without a token.
 */
export const REFERENCE_CACHE = 'public, max-age=3600';

// Sorted here, not by ORDER BY name: PGlite and PostgreSQL may use different collations, and
// 'BMW' must come after 'Bentley' on both (the seed's own order, localeCompare 'en').
const byName = new Intl.Collator('en', { sensitivity: 'base', numeric: true });
const sortByValue = <T extends { PvValue: string }>(items: T[]) => items.sort((a, b) => byName.compare(a.PvValue, b.PvValue));

export async function listMakes(db: Executor): Promise<VehicleMakeItem[]> {
  const rows = await db.select({ PVID: vehicleMakes.id, PvValue: vehicleMakes.name }).from(vehicleMakes);
  return sortByValue(rows);
}

/** The models of one make, by name; null when there is no such make. */
export async function listModels(db: Executor, makeId: number): Promise<VehicleModelItem[] | null> {
  const rows = await db
    .select({ PVID: vehicleModels.id, PvValue: vehicleModels.name, makeId: vehicleMakes.id })
    .from(vehicleMakes)
    .leftJoin(vehicleModels, eq(vehicleModels.makeId, vehicleMakes.id))
    .where(eq(vehicleMakes.id, makeId));
  if (rows.length === 0) return null;
  return sortByValue(rows.flatMap((r) => (r.PVID !== null && r.PvValue !== null ? [{ PVID: r.PVID, PvValue: r.PvValue }] : [])));
}

/** Colors in the seed's order: the common ones first, 'Other' last. */
export async function listColors(db: Executor): Promise<VehicleColorItem[]> {
  return db.select({ PvDescription: vehicleColors.name }).from(vehicleColors).orderBy(asc(vehicleColors.id));
}

/** Two-letter codes, alphabetical (codes are ASCII, so every collation agrees). */
export async function listStateCodes(db: Executor): Promise<string[]> {
  const rows = await db.select({ code: usStates.code }).from(usStates).orderBy(asc(usStates.code));
  return rows.map((r) => r.code);
}

export async function stateExists(db: Executor, code: string): Promise<boolean> {
  const [row] = await db.select({ code: usStates.code }).from(usStates).where(eq(usStates.code, code)).limit(1);
  return row !== undefined;
}

interface Named {
  id: number;
  name: string;
}

export interface VehicleRefs {
  make: Named;
  model: Named;
  color: Named;
  state: string;
}

export type Resolved = { ok: true; refs: VehicleRefs } | { ok: false; errors: FieldError[] };

/**
 * Make, model and color arrive as list names in any case (the web uppercases them); this turns
 * them into rows, checking the model belongs to the make. Every field at fault is reported.
 */
export async function resolveVehicleRefs(
  db: Executor,
  input: { VehicleMake: string; VehicleModel: string; VehicleColor: string; PlateState: string },
): Promise<Resolved> {
  const named = { id: vehicleMakes.id, name: vehicleMakes.name };
  const [[make], [color], stateOk] = await Promise.all([
    db.select(named).from(vehicleMakes).where(sql`lower(${vehicleMakes.name}) = lower(${input.VehicleMake})`).limit(1),
    db
      .select({ id: vehicleColors.id, name: vehicleColors.name })
      .from(vehicleColors)
      .where(sql`lower(${vehicleColors.name}) = lower(${input.VehicleColor})`)
      .limit(1),
    stateExists(db, input.PlateState),
  ]);
  const [model] = make
    ? await db
        .select({ id: vehicleModels.id, name: vehicleModels.name })
        .from(vehicleModels)
        .where(sql`${vehicleModels.makeId} = ${make.id} and lower(${vehicleModels.name}) = lower(${input.VehicleModel})`)
        .limit(1)
    : [];
  const errors: FieldError[] = [];
  if (!make) errors.push({ field: 'VehicleMake', message: VEHICLE_MESSAGES.makeUnknown });
  else if (!model) errors.push({ field: 'VehicleModel', message: VEHICLE_MESSAGES.modelUnknown });
  if (!stateOk) errors.push({ field: 'PlateState', message: MESSAGES.stateUnknown });
  if (!color) errors.push({ field: 'VehicleColor', message: VEHICLE_MESSAGES.colorUnknown });
  if (!make || !model || !color || !stateOk) return { ok: false, errors };
  return { ok: true, refs: { make, model, color, state: input.PlateState } };
}

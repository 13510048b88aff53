import { and, asc, eq, ne, sql } from 'drizzle-orm';
import { plateKey, type Vehicle } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { preparedPerDatabase } from '../db/prepared.ts';
import { vehicleColors, vehicleMakes, vehicleModels, vehicles } from '../db/schema/index.ts';
import type { ReferenceLists, VehicleRefs } from './reference-repository.ts';

/** What a member writes: resolved list rows, a normalized plate, a year. */
export interface VehicleInput {
  refs: VehicleRefs;
  plate: string;
  year: number;
}

const listColumns = {
  VehicleID: vehicles.id,
  VehicleMake: vehicleMakes.name,
  VehicleModel: vehicleModels.name,
  PlateNumber: vehicles.plate,
  PlateState: vehicles.plateState,
  VehicleColor: vehicleColors.name,
  year: vehicles.year,
};

function listQuery(db: Executor) {
  return db
    .select(listColumns)
    .from(vehicles)
    .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicles.makeId))
    .innerJoin(vehicleModels, eq(vehicleModels.id, vehicles.modelId))
    .innerJoin(vehicleColors, eq(vehicleColors.id, vehicles.colorId));
}

type ListRow = Omit<Vehicle, 'VehicleYear'> & { year: number };
// docs/product.md#stored-data: VehicleYear is a four-digit string. Fields named one by one: a rest pattern
// copies the row on V8's slow path, and a row with more columns gives only these.
const toVehicle = (r: ListRow): Vehicle => ({
  VehicleID: r.VehicleID,
  VehicleMake: r.VehicleMake,
  VehicleModel: r.VehicleModel,
  PlateNumber: r.PlateNumber,
  PlateState: r.PlateState,
  VehicleColor: r.VehicleColor,
  VehicleYear: String(r.year),
});

/** The member's own vehicles, oldest first (the web numbers them 'Vehicle 1', 'Vehicle 2'…). */
export async function listByMember(db: Executor, memberId: number): Promise<Vehicle[]> {
  const rows = await listQuery(db).where(eq(vehicles.memberId, memberId)).orderBy(asc(vehicles.id));
  return rows.map(toVehicle);
}

/**
 * The member's own vehicles, oldest first, from one table (GET /api/Vehicle/List): the make, model
 * and color ids are named from the reference lists in memory, as Details names the plan.
 * A list row this process has not read (a migration that added a make after it started) sends the
 * request to the joined query. The session is checked before (from the session cache, or on a
 * miss by its own statement), so the member's row is not read here.
 */
const preparedList = preparedPerDatabase((db: Executor) =>
  db
    .select({
      VehicleID: vehicles.id,
      makeId: vehicles.makeId,
      modelId: vehicles.modelId,
      colorId: vehicles.colorId,
      PlateNumber: vehicles.plate,
      PlateState: vehicles.plateState,
      year: vehicles.year,
    })
    .from(vehicles)
    .where(eq(vehicles.memberId, sql.placeholder('memberId')))
    .orderBy(asc(vehicles.id))
    .prepare('vehicle_list'),
);

export async function listNamed(db: Executor, lists: ReferenceLists, memberId: number): Promise<Vehicle[]> {
  const rows = await preparedList(db).execute({ memberId });
  const list: Vehicle[] = [];
  for (const r of rows) {
    const make = lists.makeNames.get(r.makeId);
    const model = lists.modelNames.get(r.modelId);
    const color = lists.colorNames.get(r.colorId);
    if (make === undefined || model === undefined || color === undefined) return listByMember(db, memberId);
    list.push(
      toVehicle({
        VehicleID: r.VehicleID,
        VehicleMake: make,
        VehicleModel: model,
        PlateNumber: r.PlateNumber,
        PlateState: r.PlateState,
        VehicleColor: color,
        year: r.year,
      }),
    );
  }
  return list;
}

/** One vehicle of this member; null for none, including another member's. */
export async function findOwned(db: Executor, memberId: number, vehicleId: number): Promise<Vehicle | null> {
  const [row] = await listQuery(db)
    .where(and(eq(vehicles.id, vehicleId), eq(vehicles.memberId, memberId)))
    .limit(1);
  return row ? toVehicle(row) : null;
}

/**
 * Whether the member already has this plate in this state (other than the vehicle `exceptId`),
 * compared without spaces and dashes.
 */
export async function plateTaken(
  db: Executor,
  memberId: number,
  plate: string,
  state: string,
  exceptId?: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: vehicles.id })
    .from(vehicles)
    .where(
      and(
        eq(vehicles.memberId, memberId),
        eq(vehicles.plateKey, plateKey(plate)),
        eq(vehicles.plateState, state),
        exceptId === undefined ? undefined : ne(vehicles.id, exceptId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

const columns = (v: VehicleInput) => ({
  makeId: v.refs.make.id,
  modelId: v.refs.model.id,
  colorId: v.refs.color.id,
  plate: v.plate,
  plateState: v.refs.state,
  year: v.year,
});

const asVehicle = (id: number, v: VehicleInput): Vehicle => ({
  VehicleID: id,
  VehicleMake: v.refs.make.name,
  VehicleModel: v.refs.model.name,
  PlateNumber: v.plate,
  PlateState: v.refs.state,
  VehicleColor: v.refs.color.name,
  VehicleYear: String(v.year),
});

export async function insert(db: Executor, memberId: number, v: VehicleInput): Promise<Vehicle> {
  const [row] = await db
    .insert(vehicles)
    .values({ memberId, ...columns(v) })
    .returning({ id: vehicles.id });
  if (!row) throw new Error('insert returned no row');
  return asVehicle(row.id, v);
}

/** Changes the member's vehicle; null when it is not theirs. */
export async function update(
  db: Executor,
  memberId: number,
  vehicleId: number,
  v: VehicleInput,
): Promise<Vehicle | null> {
  const [row] = await db
    .update(vehicles)
    .set({ ...columns(v), updatedAt: sql`now()` })
    .where(and(eq(vehicles.id, vehicleId), eq(vehicles.memberId, memberId)))
    .returning({ id: vehicles.id });
  return row ? asVehicle(row.id, v) : null;
}

/** Removes the member's vehicle; false when it is not theirs. */
export async function remove(db: Executor, memberId: number, vehicleId: number): Promise<boolean> {
  const rows = await db
    .delete(vehicles)
    .where(and(eq(vehicles.id, vehicleId), eq(vehicles.memberId, memberId)))
    .returning({ id: vehicles.id });
  return rows.length > 0;
}

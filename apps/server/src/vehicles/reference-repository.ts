import { asc, eq } from 'drizzle-orm';
import {
  MESSAGES,
  VEHICLE_MESSAGES,
  type FieldError,
  type VehicleColorItem,
  type VehicleMakeItem,
  type VehicleModelItem,
} from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { BASIC_PLAN_CODE, type PlanName } from '../wallet/index.ts';
import { plans, usStates, vehicleColors, vehicleMakes, vehicleModels } from '../db/schema/index.ts';

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
const sortByValue = <T extends { PvValue: string }>(items: T[]) =>
  items.sort((a, b) => byName.compare(a.PvValue, b.PvValue));

interface Named {
  id: number;
  name: string;
}

/** The reference lists, read once per app instance (ReferenceCache), with their lookups. */
export interface ReferenceLists {
  makes: VehicleMakeItem[];
  colors: VehicleColorItem[];
  states: string[];
  /** Models of each make, by name. */
  models: Map<number, VehicleModelItem[]>;
  makeByName: Map<string, Named>;
  colorByName: Map<string, Named>;
  /** Key: `${makeId}\n${lower-case model name}`. */
  modelByName: Map<string, Named>;
  stateCodes: Set<string>;
  /** Names by id: GET /api/Vehicle/List reads a vehicle's ids and names them from here. */
  makeNames: Map<number, string>;
  modelNames: Map<number, string>;
  colorNames: Map<number, string>;
  /** The subscription plans by id (GET /api/Account/Details names the member's), and Basic's id. */
  plans: Map<number, PlanName>;
  basicPlanId: number;
}

/** Reads every list (five statements, at once). */
export async function loadReferenceLists(db: Executor): Promise<ReferenceLists> {
  const [makes, models, colors, states, planRows] = await Promise.all([
    db.select({ id: vehicleMakes.id, name: vehicleMakes.name }).from(vehicleMakes),
    db.select({ id: vehicleModels.id, name: vehicleModels.name, makeId: vehicleModels.makeId }).from(vehicleModels),
    db.select({ id: vehicleColors.id, name: vehicleColors.name }).from(vehicleColors).orderBy(asc(vehicleColors.id)),
    db.select({ code: usStates.code }).from(usStates).orderBy(asc(usStates.code)),
    db.select({ id: plans.id, code: plans.code, name: plans.name }).from(plans),
  ]);
  const basic = planRows.find((p) => p.code === BASIC_PLAN_CODE);
  if (!basic) throw new Error('the Basic plan is missing (migration wallet_data)');
  const byMake = new Map<number, VehicleModelItem[]>(makes.map((m) => [m.id, []]));
  for (const m of models) byMake.get(m.makeId)?.push({ PVID: m.id, PvValue: m.name });
  for (const list of byMake.values()) sortByValue(list);
  return {
    makes: sortByValue(makes.map((m) => ({ PVID: m.id, PvValue: m.name }))),
    // Colors in the seed's order: the common ones first, 'Other' last.
    colors: colors.map((c) => ({ PvDescription: c.name })),
    // Two-letter codes, alphabetical (codes are ASCII, so every collation agrees).
    states: states.map((s) => s.code),
    models: byMake,
    makeByName: new Map(makes.map((m) => [m.name.toLowerCase(), m])),
    colorByName: new Map(colors.map((c) => [c.name.toLowerCase(), c])),
    modelByName: new Map(models.map((m) => [`${m.makeId}\n${m.name.toLowerCase()}`, { id: m.id, name: m.name }])),
    stateCodes: new Set(states.map((s) => s.code)),
    makeNames: new Map(makes.map((m) => [m.id, m.name])),
    modelNames: new Map(models.map((m) => [m.id, m.name])),
    colorNames: new Map(colors.map((c) => [c.id, c.name])),
    plans: new Map(planRows.map((p) => [p.id, p])),
    basicPlanId: basic.id,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    referenceLists: ReferenceCache;
  }
}

/**
 * The lists (and the plans) change only with a migration, and migrations run before the app starts
 * (openDatabase), so each app instance reads them once, on first use, and keeps them.
 */
export class ReferenceCache {
  private loading: Promise<ReferenceLists> | null = null;

  get(db: Executor): Promise<ReferenceLists> {
    this.loading ??= loadReferenceLists(db).catch((err: unknown) => {
      this.loading = null;
      throw err;
    });
    return this.loading;
  }

  /**
   * A plan by id (null: Basic). A plan added by a migration after this process started (a rolling
   * deploy, another process subscribing a member to it) is read from the database instead.
   */
  async plan(db: Executor, id: number | null): Promise<PlanName> {
    const lists = await this.get(db);
    const known = lists.plans.get(id ?? lists.basicPlanId);
    if (known) return known;
    const [row] = await db
      .select({ id: plans.id, code: plans.code, name: plans.name })
      .from(plans)
      .where(eq(plans.id, id ?? lists.basicPlanId));
    if (!row) throw new Error(`plan ${id} does not exist`);
    return row;
  }
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
export function resolveVehicleRefs(
  lists: ReferenceLists,
  input: { VehicleMake: string; VehicleModel: string; VehicleColor: string; PlateState: string },
): Resolved {
  const make = lists.makeByName.get(input.VehicleMake.toLowerCase());
  const color = lists.colorByName.get(input.VehicleColor.toLowerCase());
  const stateOk = lists.stateCodes.has(input.PlateState);
  const model = make ? lists.modelByName.get(`${make.id}\n${input.VehicleModel.toLowerCase()}`) : undefined;
  const errors: FieldError[] = [];
  if (!make) errors.push({ field: 'VehicleMake', message: VEHICLE_MESSAGES.makeUnknown });
  else if (!model) errors.push({ field: 'VehicleModel', message: VEHICLE_MESSAGES.modelUnknown });
  if (!stateOk) errors.push({ field: 'PlateState', message: MESSAGES.stateUnknown });
  if (!color) errors.push({ field: 'VehicleColor', message: VEHICLE_MESSAGES.colorUnknown });
  if (!make || !model || !color || !stateOk) return { ok: false, errors };
  return { ok: true, refs: { make, model, color, state: input.PlateState } };
}

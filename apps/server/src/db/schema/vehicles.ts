import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, ref, serialId, updatedAt } from './columns.ts';
import { memberRef } from './members.ts';

// Reference lists, seeded by migration (scripts/reference-sql.ts). Ids are fixed by that script.
export const vehicleMakes = pgTable('vehicle_makes', {
  id: integer('id').primaryKey(),
  name: text('name').notNull().unique(),
});

export const vehicleModels = pgTable(
  'vehicle_models',
  {
    id: integer('id').primaryKey(),
    makeId: ref('make_id', () => vehicleMakes.id),
    name: text('name').notNull(),
  },
  (t) => [uniqueIndex('vehicle_models_make_id_name_unique').on(t.makeId, t.name)],
);

export const vehicleColors = pgTable('vehicle_colors', {
  id: integer('id').primaryKey(),
  name: text('name').notNull().unique(),
});

export const usStates = pgTable('us_states', {
  code: text('code').primaryKey(),
  name: text('name').notNull(),
});

export const vehicles = pgTable(
  'vehicles',
  {
    id: serialId(),
    memberId: memberRef(),
    makeId: ref('make_id', () => vehicleMakes.id),
    modelId: ref('model_id', () => vehicleModels.id),
    plate: text('plate').notNull(),
    // The plate without spaces and dashes (contract's plateKey): what duplicates are found by.
    plateKey: text('plate_key')
      .notNull()
      .generatedAlwaysAs(sql`upper(regexp_replace(plate, '[^A-Za-z0-9]', '', 'g'))`),
    plateState: text('plate_state')
      .notNull()
      .references(() => usStates.code),
    colorId: ref('color_id', () => vehicleColors.id),
    year: integer('year').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('vehicles_member_idx').on(t.memberId),
    // One plate per state per member, compared without spaces and dashes.
    uniqueIndex('vehicles_member_plate_key').on(t.memberId, t.plateKey, t.plateState),
  ],
);

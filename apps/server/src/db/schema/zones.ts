import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, point, smallint, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, moment, position, serialId, updatedAt } from './columns.ts';
import { operatorRef } from './members.ts';
import { pricePolicies } from './pricing.ts';

/**
 * Parking zones of an operator. Nearby search scans a GiST index on the zone's Mercator point and
 * measures exactly in JS (zone-repository.ts, earth.ts); text search orders by earthdistance's
 * chord (docs/architecture.md#libraries-and-their-traps) and matches with pg_trgm.
 */
export const zones = pgTable(
  'zones',
  {
    id: serialId(),
    operatorId: operatorRef(),
    /** The short code drivers type from the street sign. */
    zoneNumber: text('zone_number').notNull(),
    name: text('name').notNull(),
    address: text('address').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    ...position(),
    /**
     * The position on the Mercator plane of the unit sphere (radians: longitude, asinh(tan(latitude))),
     * kept by the database: what zones_operator_mercator_idx orders a nearby search by (earth.ts).
     */
    mercator: point('mercator', { mode: 'tuple' }).generatedAlwaysAs(
      sql`point(radians(lng), asinh(tan(radians(lat))))`,
    ),
    kind: text('kind').notNull(), // 'street' | 'lot' | 'garage'
    rateCents: integer('rate_cents').notNull(),
    maxStayMinutes: integer('max_stay_minutes').notNull(),
    /** ISO weekdays (1 = Monday) when payment is required, between paid_from and paid_until. */
    paidDays: smallint('paid_days').array().notNull(),
    /** Minutes after local midnight; 0 and 1440 mean always paid on a paid day. */
    paidFromMinute: smallint('paid_from_minute').notNull(),
    paidUntilMinute: smallint('paid_until_minute').notNull(),
    capacity: integer('capacity').notNull(),
    /** The zone's price policy (docs/pricing.md); none: priced by its preset columns above. */
    pricePolicyId: integer('price_policy_id').references(() => pricePolicies.id),
    /** The curb line or area of the zone (a GeoJSON LineString or Polygon, checked by the console's routes), or null: a point only. */
    curb: jsonb('curb'),
    /** When the operator retired the zone: it keeps its history, refuses new quotes and sessions and leaves Find Parking. */
    retiredAt: moment('retired_at'),
    /**
     * The zone's Curb Data Specification `curb_zone_id` when it came from a CDS feed (kept so that a
     * feed imported and published again keeps its ids); null: derived from the zone's id (opendata/).
     */
    cdsId: uuid('cds_id'),
    createdAt: createdAt(),
    /** When the row last changed: set by a trigger on every update (migration 0033), read by the CDS feed. */
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('zones_operator_number_key').on(t.operatorId, t.zoneNumber),
    uniqueIndex('zones_cds_id_key').on(t.cdsId),
    // The plate check finds the zone by its number in any case (enforcement/check-repository.ts).
    index('zones_operator_upper_number_idx').on(t.operatorId, sql`upper(${t.zoneNumber})`),
    // One operator's zones near a point: operator_id through btree_gist, so a nearby
    // query reads only that operator's zones; a 2-D point, whose k-nearest scan costs about a third
    // of ll_to_earth's 3-D cube. (zones_zone_number_idx was never used: a zone number is always
    // looked up with its operator, zones_operator_number_key.)
    index('zones_operator_mercator_idx').using('gist', t.operatorId, t.mercator),
    index('zones_address_trgm_idx').using('gin', sql`lower(${t.address}) gin_trgm_ops`),
    index('zones_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`),
    // Text search ranks one operator's zones by word similarity to the text: a k-nearest
    // scan of this index (`<<->`) yields the most similar first, so the best match is among the
    // candidates however many near-misses there are (zone-search.ts, SEARCH_TEXT).
    index('zones_operator_search_trgm_idx').using(
      'gist',
      t.operatorId,
      sql`lower(${t.name} || ' ' || ${t.address}) gist_trgm_ops`,
    ),
  ],
);

/**
 * A number per operator, new with every statement that inserts, updates, deletes or truncates its
 * zones (the triggers of migration 0021, in the statement's own transaction). A server that holds an
 * operator's zone positions in memory reads it first: the same number means the same zones
 * (zone-map.ts). No foreign key: a zone deleted with its operator still marks the set changed.
 */
export const zoneSetVersions = pgTable('zone_set_versions', {
  operatorId: integer('operator_id').primaryKey(),
  version: bigint('version', { mode: 'number' }).notNull(),
});

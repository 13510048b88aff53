import { and, asc, count, eq, gte, inArray, isNull, sql } from 'drizzle-orm';
import { apdsList, type ApdsListMeta, type ApdsPlace, type ApdsPlacesQuery } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { operators, zones } from '../db/schema/index.ts';
import {
  APDS_PAGE,
  en,
  ref,
  placeId,
  campusId,
  idNumber,
  meta,
  zoneColumns,
  type ZoneRow,
  near,
  zoneRowOfEvent,
} from './apds-common.ts';

/** The APDS places: an operator is a campus, each live zone a parkingPlace under it (docs/apds.md#mapping). */
const STRUCTURE = { street: 'onStreet', lot: 'offStreetSurface', garage: 'offStreetStructure' } as const;

function zonePlace(z: ZoneRow): ApdsPlace {
  const curb = z.curb as { type?: string; coordinates?: unknown } | null;
  return {
    id: placeId(z.id),
    version: 1,
    name: en(z.name),
    layer: 1,
    type: 'parkingPlace',
    parentId: ref(campusId(z.operatorId), 'Campus'),
    operatorDefinedReference: en(z.zoneNumber),
    hierarchyElementRecord: { creationTime: z.createdAt.toISOString() },
    rightSpecifications: [ref(placeId(z.id), 'RightSpecification')],
    timeZone: z.timezone,
    placeStreetAddress: [
      {
        addressLines: [{ order: 1, text: en(z.address), type: 'street' }],
        city: en(z.city || '-'),
        countryCode: 'us',
        postCode: z.zip,
      },
    ],
    ...(curb?.type === 'Polygon'
      ? { placeBoundedZone: [{ type: 'MultiPolygon' as const, coordinates: [curb.coordinates as number[][][]] }] }
      : {}),
    indicativePlacePointLocation: [{ type: 'Point', coordinates: [z.lng, z.lat] }],
    characteristics: [
      {
        openToPublic: true,
        operatingModes: ['app', 'payByPlate'],
        spacesTotal: z.capacity,
        structureType: STRUCTURE[z.kind as keyof typeof STRUCTURE] ?? 'onStreet',
      },
    ],
  };
}

/** The zone's Place as a webhook event carries it (migration 0052's `zone`). */
export const placeOfEvent = (zone: Record<string, unknown>): ApdsPlace => zonePlace(zoneRowOfEvent(zone));

/** GET /apds/places: operators (campus, layer 0) and their live zones (parkingPlace, layer 1). */
export async function listPlaces(
  db: Executor,
  q: ApdsPlacesQuery,
  now: Date,
): Promise<{ meta: ApdsListMeta; data: ApdsPlace[] }> {
  const types = apdsList(q.type);
  const rightTypes = apdsList(q.right_type);
  const structures = apdsList(q.structure_type);
  const wantsZones =
    (types.length === 0 || types.includes('parkingPlace')) &&
    (q.layer === undefined || q.layer >= 1) &&
    (rightTypes.length === 0 || rightTypes.includes('oneTimeUseParking')) &&
    apdsList(q.structure_grade).every((g) => g === 'groundLevel');
  const wantsCampus =
    (types.length === 0 || types.includes('campus')) &&
    q.latitude === undefined &&
    rightTypes.length === 0 &&
    structures.length === 0 &&
    apdsList(q.structure_grade).length === 0;
  const kinds = Object.entries(STRUCTURE)
    .filter(([, s]) => structures.length === 0 || structures.includes(s))
    .map(([k]) => k);
  const name = q.name?.toLowerCase();
  const since = q.modified_since === undefined ? undefined : new Date(q.modified_since * 1000);

  const campuses = wantsCampus
    ? (
        await db
          .select({ id: operators.id, name: operators.name, createdAt: operators.createdAt })
          .from(operators)
          .where(
            and(
              name ? sql`lower(${operators.name}) like ${`%${name}%`}` : undefined,
              since ? gte(operators.createdAt, since) : undefined,
            ),
          )
          .orderBy(asc(operators.id))
      ).map((o): ApdsPlace => ({
        id: campusId(o.id),
        version: 1,
        name: en(o.name),
        layer: 0,
        type: 'campus',
        hierarchyElementRecord: { creationTime: o.createdAt.toISOString() },
      }))
    : [];
  const where = wantsZones
    ? and(
        isNull(zones.retiredAt),
        kinds.length ? inArray(zones.kind, kinds) : sql`false`,
        name ? sql`(lower(${zones.name}) like ${`%${name}%`} or lower(${zones.zoneNumber}) = ${name})` : undefined,
        since ? gte(zones.createdAt, since) : undefined,
        near(q.latitude, q.longitude, q.radius),
      )
    : sql`false`;
  const offset = q.offset ?? 0;
  const zoneOffset = Math.max(0, offset - campuses.length);
  const [rows, [total]] = await Promise.all([
    db
      .select(zoneColumns)
      .from(zones)
      .innerJoin(operators, eq(operators.id, zones.operatorId))
      .where(where)
      .orderBy(asc(zones.id))
      .offset(zoneOffset)
      .limit(APDS_PAGE),
    db.select({ n: count() }).from(zones).where(where),
  ]);
  const data = [...campuses.slice(offset), ...rows.map(zonePlace)].slice(0, APDS_PAGE);
  return { meta: meta(campuses.length + (total?.n ?? 0), offset, now), data };
}

/** GET /apds/places/{id}: one campus or zone; null when there is none (or it is retired). */
export async function getPlace(db: Executor, id: string, now: Date): Promise<ApdsPlace | null> {
  const zoneId = idNumber(id, 'zone');
  if (zoneId !== null) {
    const [row] = await db
      .select(zoneColumns)
      .from(zones)
      .innerJoin(operators, eq(operators.id, zones.operatorId))
      .where(and(eq(zones.id, zoneId), isNull(zones.retiredAt)));
    return row ? zonePlace(row) : null;
  }
  const operatorId = idNumber(id, 'operator');
  if (operatorId === null) return null;
  const list = await listPlaces(db, { type: 'campus' }, now);
  return list.data.find((p) => p.id === id) ?? null;
}

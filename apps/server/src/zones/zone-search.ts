import { and, asc, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { zones } from '../db/schema/index.ts';
import { earthCube } from './earth.ts';
import { chordFrom, toHit, zoneColumns, type ZoneHit } from './zone-repository.ts';
import { likePatterns, normalizeSearch, zoneNumberRange } from './zone-search-text.ts';

export interface SearchParams {
  operatorId: number;
  q: string;
  lat?: number | undefined;
  lng?: number | undefined;
  limit: number;
}

/** Zones looked at before ranking: bounds the work of a short number prefix or a very common word. */
const CANDIDATES = 1000;
/** Name and address as zones_operator_search_trgm_idx holds them (the same expression, or no index). */
const SEARCH_TEXT = sql`lower(${zones.name} || ' ' || ${zones.address})`;
/** pg_trgm's indexes need a run of three letters or digits; shorter text would read every zone. */
const INDEXABLE = /[\p{L}\p{N}]{3}/u;

/**
 * A zone number (only digits): the exact number first, then numbers that start with it (typing
 * ahead). A zone number with letters: that zone first, if there is one, then the text matches. Anything else: address or name by prefix, word prefix, substring, then typo-tolerant
 * trigram matches (pg_trgm `<%`, word similarity >= 0.6). With a position, matches of the same
 * kind come nearest first; without, by relevance. Text without three letters or digits in a row
 * finds nothing rather than reading the whole table.
 */
export async function search(db: Executor, p: SearchParams): Promise<ZoneHit[]> {
  const q = normalizeSearch(p.q);
  const position = p.lat !== undefined && p.lng !== undefined;
  const chord = position ? chordFrom(earthCube(p.lat!, p.lng!)) : sql<null>`null::float8`;
  if (/^\d+$/.test(q)) return searchNumber(db, p, q, chord);
  const text = INDEXABLE.test(q) ? await searchText(db, p, q, chord, position) : [];
  // A zone number with letters (the console takes A-Z, 0-9 and '-': "PC12", "A-7") is found
  // exactly too, first, beside the text matches.
  if (!ZONE_NUMBER.test(q)) return text;
  const [exact] = await db
    .select({ ...zoneColumns, chord: sql<number | null>`${chord}`.as('chord') })
    .from(zones)
    .where(and(eq(zones.operatorId, p.operatorId), isNull(zones.retiredAt), eq(zones.zoneNumber, q.toUpperCase())));
  if (!exact) return text;
  return [toHit(exact), ...text.filter((h) => h.zone.id !== exact.id)].slice(0, p.limit);
}

/** A zone number as the console writes it (ZoneInput), in lower case as normalizeSearch leaves it. */
const ZONE_NUMBER = /^[a-z0-9][a-z0-9-]{0,19}$/;

async function searchNumber(db: Executor, p: SearchParams, q: string, chord: SQL): Promise<ZoneHit[]> {
  const { lower, upper } = zoneNumberRange(q);
  // The range keeps the scan on the (operator_id, zone_number) index; starts_with makes it exact
  // whatever the collation does with the bounds.
  const candidates = db
    .select({ ...zoneColumns, chord: sql<number | null>`${chord}`.as('chord') })
    .from(zones)
    .where(
      and(
        eq(zones.operatorId, p.operatorId),
        isNull(zones.retiredAt),
        sql`${zones.zoneNumber} >= ${lower}`,
        upper === null ? undefined : sql`${zones.zoneNumber} < ${upper}`,
        sql`starts_with(${zones.zoneNumber}, ${q})`,
      ),
    )
    .orderBy(asc(zones.zoneNumber))
    .limit(CANDIDATES)
    .as('c');
  const rows = await db
    .select()
    .from(candidates)
    .orderBy(
      sql`(${candidates.zoneNumber} = ${q}) desc`,
      sql`${candidates.chord} asc nulls last`,
      asc(candidates.zoneNumber),
    )
    .limit(p.limit);
  return rows.map(toHit);
}

async function searchText(
  db: Executor,
  p: SearchParams,
  q: string,
  chord: SQL,
  byDistance: boolean,
): Promise<ZoneHit[]> {
  const rows = await textQuery(db, p, q, chord, byDistance);
  return rows.map(({ tier: _tier, similarity: _similarity, ...row }) => toHit(row));
}

/** The SQL of a text search, unexecuted: tests EXPLAIN it. */
export function searchTextQuery(db: Executor, p: SearchParams): SQL {
  const position = p.lat !== undefined && p.lng !== undefined;
  const chord = position ? chordFrom(earthCube(p.lat!, p.lng!)) : sql<null>`null::float8`;
  return textQuery(db, p, normalizeSearch(p.q), chord, position).getSQL();
}

function textQuery(db: Executor, p: SearchParams, q: string, chord: SQL, byDistance: boolean) {
  const like = likePatterns(q);
  const address = sql`lower(${zones.address})`;
  const name = sql`lower(${zones.name})`;
  const matches = (pattern: string) =>
    sql`(${address} like ${pattern} escape '\\' or ${name} like ${pattern} escape '\\')`;
  // The candidates are the CANDIDATES most similar matches (word similarity to name and address
  // together), read in that order from zones_operator_search_trgm_idx: a text matching more zones
  // than that keeps its best matches, never just the first ones found.
  const candidates = db
    .select({
      ...zoneColumns,
      chord: sql<number | null>`${chord}`.as('chord'),
      // 3 = address or name starts with q, 2 = a word does, 1 = contains it, 0 = only similar (typo).
      tier: sql<number>`case when ${matches(like.prefix)} then 3 when ${matches(like.wordPrefix)} then 2 when ${matches(like.contains)} then 1 else 0 end`.as(
        'tier',
      ),
      similarity: sql<number>`greatest(word_similarity(${q}, ${address}), word_similarity(${q}, ${name}))`.as(
        'similarity',
      ),
    })
    .from(zones)
    .where(
      and(
        eq(zones.operatorId, p.operatorId),
        isNull(zones.retiredAt),
        sql`(${matches(like.contains)} or ${q} <% ${address} or ${q} <% ${name})`,
      ),
    )
    .orderBy(sql`${q} <<-> ${SEARCH_TEXT}`)
    .limit(CANDIDATES)
    .as('c');
  const c = candidates;
  const order = byDistance
    ? [sql`(${c.tier} > 0) desc`, asc(c.chord), sql`${c.tier} desc`, sql`${c.similarity} desc`, asc(c.id)]
    : [sql`${c.tier} desc`, sql`${c.similarity} desc`, asc(c.zoneNumber)];
  return db
    .select()
    .from(c)
    .orderBy(...order)
    .limit(p.limit);
}

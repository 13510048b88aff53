import { LruMap } from 'toad-cache';
import type { Executor } from '../../../db/client.ts';
import { ZoneMap } from './zone-map.ts';
import { zonePoints, zonesByIds, zoneSetVersion, type ZoneRecord, type ZoneRef, type ZoneRows } from './zone-repository.ts';

/** Zones kept per process: a city's worth (the demo has 1,200; a large operator some tens of thousands). */
const MAX_ZONES = 50_000;
/**
 * The most zones of one operator held as points (~100 bytes each); nearby() searches an operator
 * with more with the database's index. Operators held at once: the least recently searched is dropped.
 */
const MAX_MAPPED_ZONES = 100_000;
const MAX_MAPPED_OPERATORS = 32;

/** An operator's zones as points at a version of the set; null: more than a process holds. */
interface Held {
  version: number;
  map: ZoneMap | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    zoneRows: ZoneCache;
  }
}

/**
 * Zone rows in memory, each with the row version it was read at (issue 9: the nearest-zone query
 * read and parsed every column of 20 rows per call, though zones change only by import or by an
 * operator's edit). A query that finds zones returns their ids and row versions (xmin, new with
 * every UPDATE of the row), and the rows come from here; a zone not held, or held at another
 * version, is read again, all of them in one statement. So an edit made anywhere (another server,
 * psql) is seen by the next request, as without the cache. One cache per app instance (its own
 * database); the least recently used zones are dropped past MAX_ZONES.
 *
 * It also holds each operator's zones as points (ZoneMap), which nearby() searches instead of the
 * database's index: first it reads the version of the operator's set of zones (zone_set_versions,
 * new with every statement that changes one of them, in that statement's transaction), and a map
 * held at another version is read again (ids, row versions and positions; the rows stay here). A
 * map read after version V was seen holds V's zones or newer ones, so it is kept as V: at worst
 * the next request reads it again. Concurrent requests that find the map stale wait for one read.
 */
export class ZoneCache implements ZoneRows {
  private readonly rows: LruMap<{ version: string; zone: ZoneRecord }>;
  private readonly maps = new LruMap<Held>(MAX_MAPPED_OPERATORS);
  private readonly reading = new Map<string, Promise<ZoneMap | null>>();

  constructor(
    max = MAX_ZONES,
    private readonly maxMapped = MAX_MAPPED_ZONES,
  ) {
    this.rows = new LruMap(max);
  }

  async map(db: Executor, operatorId: number): Promise<ZoneMap | null> {
    const version = await zoneSetVersion(db, operatorId);
    const held = this.maps.get(operatorId);
    if (held?.version === version) return held.map;
    const key = `${operatorId}:${version}`;
    let read = this.reading.get(key);
    if (!read) {
      read = this.readMap(db, operatorId, version).finally(() => this.reading.delete(key));
      this.reading.set(key, read);
    }
    return read;
  }

  private async readMap(db: Executor, operatorId: number, version: number): Promise<ZoneMap | null> {
    const points = await zonePoints(db, operatorId, this.maxMapped + 1);
    const map = points.length > this.maxMapped ? null : new ZoneMap(version, points);
    // Versions only grow (the triggers take the next value under the set's row lock): keep the newest.
    const held = this.maps.get(operatorId);
    if (!held || held.version < version) this.maps.set(operatorId, { version, map });
    return map;
  }

  /** The zones of these refs, in their order; a zone deleted since it was found is left out. */
  async records(db: Executor, refs: readonly ZoneRef[]): Promise<ZoneRecord[]> {
    const found: (ZoneRecord | undefined)[] = refs.map((r) => {
      const held = this.rows.get(r.id);
      return held?.version === r.version ? held.zone : undefined;
    });
    const missing = refs.filter((_, i) => found[i] === undefined).map((r) => r.id);
    if (missing.length > 0) {
      const read = new Map<number, ZoneRecord>();
      for (const { version, ...zone } of await zonesByIds(db, missing)) {
        // The version read now, which may be newer than the one the query found: the row as it is.
        this.rows.set(zone.id, { version, zone });
        read.set(zone.id, zone);
      }
      refs.forEach((r, i) => (found[i] ??= read.get(r.id)));
    }
    return found.filter((z): z is ZoneRecord => z !== undefined);
  }
}

import { LruMap } from 'toad-cache';
import type { Executor } from '../../../db/client.ts';
import { zonesByIds, type ZoneRecord, type ZoneRef, type ZoneRows } from './zone-repository.ts';

/** Zones kept per process: a city's worth (the demo has 1,200; a large operator some tens of thousands). */
const MAX_ZONES = 50_000;

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
 */
export class ZoneCache implements ZoneRows {
  private readonly rows: LruMap<{ version: string; zone: ZoneRecord }>;

  constructor(max = MAX_ZONES) {
    this.rows = new LruMap(max);
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

import { LruMap } from 'toad-cache';
import type { Executor } from '../db/client.ts';
import { Tickets, type Link, type Ticket } from '../infra/tickets.ts';
import { ZoneMap } from './zone-map.ts';
import {
  zonePoints,
  zonesByIds,
  zoneSetVersion,
  type ZoneRecord,
  type ZoneRef,
  type ZoneRows,
} from './zone-repository.ts';

/** Zones kept per process: a city's worth (the demo has 1,200; a large operator some tens of thousands). */
const MAX_ZONES = 50_000;
/**
 * The most zones of one operator held as points (~100 bytes each); nearby() searches an operator
 * with more with the database's index. Operators held at once: the least recently searched is dropped.
 */
const MAX_MAPPED_ZONES = 100_000;
const MAX_MAPPED_OPERATORS = 32;

/** The channel on which migration 0022's trigger tells every process that zones changed (at commit). */
export const ZONE_SET_CHANNEL = 'parkit_zone_sets';

/** An operator's zones as points at a version of the set; null: more than a process holds. */
interface Held {
  version: number;
  map: ZoneMap | null;
  /** Set when the version was read with nothing told since: used without a statement while it holds. */
  trusted?: Ticket;
}

export interface ZoneCacheOptions {
  /** Zone rows held (least recently used dropped). */
  maxZones?: number;
  /** An operator with more zones is searched with the database's index (0: always). */
  maxMapped?: number;
  /**
   * The process's LISTEN connection (app.notifications, on PostgreSQL): while it is up, a map
   * whose version was read since the last notification on ZONE_SET_CHANNEL is used without
   * reading the version again. None (PGlite, tests): the version is read on every search.
   */
  link?: Link | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    zoneRows: ZoneCache;
  }
}

/**
 * Zone rows in memory, each with the row version it was read at (the nearest-zone query
 * read and parsed every column of 20 rows per call, though zones change only by import or by an
 * operator's edit). A query that finds zones returns their ids and row versions (xmin, new with
 * every UPDATE of the row), and the rows come from here; a zone not held, or held at another
 * version, is read again, all of them in one statement. So an edit made anywhere (another server,
 * psql) is seen by the next query that finds the zone, as without the cache (nearby's refs come
 * from the map below). One cache per app instance (its own
 * database); the least recently used zones are dropped past MAX_ZONES.
 *
 * It also holds each operator's zones as points (ZoneMap), which nearby() searches instead of the
 * database's index: first it reads the version of the operator's set of zones (zone_set_versions,
 * new with every statement that changes one of them, in that statement's transaction), and a map
 * held at another version is read again (ids, row versions and positions; the rows stay here). A
 * map read after version V was seen holds V's zones or newer ones, so it is kept as V: at worst
 * the next request reads it again. Concurrent requests that find the map stale wait for one read.
 *
 * On PostgreSQL that version read is the search's only statement, so it is skipped while nothing
 * can have changed (as the session cache does, session-cache.ts): every statement that changes
 * zones also sends a notification (migration 0022) that PostgreSQL delivers at its commit to every
 * listening process, here counted by told(). A version read is trusted only if nothing was told and
 * the LISTEN connection did not drop (its generation) between the read's start and its answer, and
 * it stays trusted until the next notification or drop. A change made in another process shows
 * once its notification arrives (test/zone-set-notify.test.ts: within milliseconds); with LISTEN
 * down, or on PGlite, every search reads the version as before.
 */
export class ZoneCache implements ZoneRows {
  private readonly rows: LruMap<{ version: string; zone: ZoneRecord }>;
  private readonly maps = new LruMap<Held>(MAX_MAPPED_OPERATORS);
  private readonly reading = new Map<string, Promise<ZoneMap | null>>();
  private readonly maxMapped: number;
  /** None without a LISTEN connection: nothing is trusted. */
  private readonly tickets: Tickets | null;

  constructor({ maxZones = MAX_ZONES, maxMapped = MAX_MAPPED_ZONES, link = null }: ZoneCacheOptions = {}) {
    this.rows = new LruMap(maxZones);
    this.maxMapped = maxMapped;
    this.tickets = link ? new Tickets(link) : null;
  }

  /** Zones changed somewhere (ZONE_SET_CHANNEL): every map's version is read again before it is used. */
  told(): void {
    this.tickets?.tell();
  }

  async map(db: Executor, operatorId: number): Promise<ZoneMap | null> {
    const held = this.maps.get(operatorId);
    if (held?.trusted && this.tickets?.valid(held.trusted)) return held.map;
    const ticket = this.tickets?.take();
    const version = await zoneSetVersion(db, operatorId);
    const map = await this.mapAt(db, operatorId, version);
    // Trusted as of the ticket: a notification or a reconnect since then makes it stale at once.
    const now = this.maps.get(operatorId);
    if (ticket && now?.version === version) now.trusted = ticket;
    return map;
  }

  /** The operator's map at this version: the one held, or read (once for concurrent requests). */
  private mapAt(db: Executor, operatorId: number, version: number): Promise<ZoneMap | null> {
    const held = this.maps.get(operatorId);
    if (held?.version === version) return Promise.resolve(held.map);
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

  /**
   * One zone's row and the row version it was read at: the one held, or read now (and held). For a
   * statement that checks the version itself (parking/quote-statement.ts: `xmin` unchanged), so a
   * row changed since is only a miss there. Null: no such zone.
   */
  async held(db: Executor, id: number): Promise<{ version: string; zone: ZoneRecord } | null> {
    const hit = this.rows.get(id);
    if (hit) return hit;
    const [row] = await zonesByIds(db, [id]);
    if (!row) return null;
    const { version, ...zone } = row;
    this.rows.set(id, { version, zone });
    return { version, zone };
  }

  /** A zone seen at another version than the one held: the next held() reads it again. */
  forget(id: number): void {
    this.rows.delete(id);
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

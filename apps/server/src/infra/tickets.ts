import { LruMap } from 'toad-cache';

/** The process's LISTEN connection as a cache sees it (notifications.ts). */
export interface Link {
  readonly generation: number;
  readonly live: boolean;
}

/** Taken before a read: the read may be trusted only if nothing was told, and LISTEN did not drop, meanwhile. */
export interface Ticket {
  told: number;
  generation: number;
}

/**
 * The rule of the caches filled from reads and emptied by notifications (session-cache.ts,
 * zone-cache.ts): a read that a change overtook may return the old value, and its answer may
 * arrive after the change's notification did; and notifications sent while LISTEN was down are
 * lost. So a ticket is taken before the read, and what it read is trusted only while the ticket
 * is valid: LISTEN up, no change told since, and the same connection (generation).
 */
export class Tickets {
  private told = 0;

  constructor(private readonly link: Link) {}

  take(): Ticket {
    return { told: this.told, generation: this.link.generation };
  }

  /** A change was told (here, or by another process): every ticket taken before is void. */
  tell(): void {
    this.told += 1;
  }

  valid(ticket: Ticket): boolean {
    return this.link.live && ticket.told === this.told && ticket.generation === this.link.generation;
  }

  /** LISTEN is up on the connection of this generation (no change told counts). */
  connected(generation: number): boolean {
    return this.link.live && generation === this.link.generation;
  }
}

/**
 * Key -> value, per process, filled from reads and emptied by notifications, under the rule of
 * Tickets: take ticket() before the read, remember() what it read with that ticket, get() answers
 * only what is still trusted (LISTEN up on the connection it was read under). Whoever changes a
 * value sends pg_notify in the change's own transaction, every process's LISTEN handler calls
 * forget(), and the process that made the change calls forget() too once it committed (the only
 * telling there is on PGlite, one process per data folder). A null or undefined value is never
 * stored: that is a read each time. At most `max` entries, the least recently used dropped first
 * (toad-cache's LruMap, as the zone cache's).
 */
export class NotifiedCache<K, V> {
  private readonly entries: LruMap<{ value: V; generation: number }>;
  private readonly tickets: Tickets;

  constructor(link: Link, max = 10_000) {
    this.entries = new LruMap(max);
    this.tickets = new Tickets(link);
  }

  ticket(): Ticket {
    return this.tickets.take();
  }

  /** The trusted value, or undefined: read it (and remember()). */
  get(key: K): V | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    if (!this.tickets.connected(e.generation)) {
      this.entries.delete(key);
      return undefined;
    }
    return e.value;
  }

  /** A value read from the database since `ticket` was taken. */
  remember(key: K, value: V | null | undefined, ticket: Ticket): void {
    if (value === null || value === undefined) return;
    if (!this.tickets.valid(ticket)) return;
    this.entries.set(key, { value, generation: ticket.generation });
  }

  /** The value changed (here, or in another process): read it again next time. */
  forget(key: K): void {
    this.tickets.tell();
    this.entries.delete(key);
  }

  get size(): number {
    return this.entries.size;
  }
}

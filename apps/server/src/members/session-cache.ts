import { Tickets, type Link, type Ticket } from '../infra/tickets.ts';

export type { Ticket };

/** The channel on which a change of a member's session version is told to every process. */
export const SESSION_CHANNEL = 'parkit_sessions';

/**
 * Member id -> session version, per process, so a member's requests after the
 * first need no statement to check their token.
 *
 * Why an entry is safe to trust:
 * - Every change of a version (logout, new password, a member deleted) sends pg_notify on
 *   SESSION_CHANNEL in its own transaction and calls forget() here once it committed; PostgreSQL
 *   delivers the notification at commit to every process, whose LISTEN handler calls forget().
 * - An entry is stored only if no forget() and no (re)connect happened since its read began (the
 *   ticket): a read that started before a change committed may return the old version, and its
 *   answer may arrive after the notification did.
 * - An entry is used only while the LISTEN connection that was up when it was read is still up
 *   (same generation, live): notifications sent while it was down are lost, so older entries are
 *   read again. With LISTEN down every request reads the database, as before the cache.
 * - A member who does not exist (null) is never stored: each such request reads, and gets 401.
 * On PGlite the data folder belongs to this one process, so the in-process forget() suffices.
 */
export class SessionCache {
  private readonly entries = new Map<number, { version: number; generation: number }>();
  private readonly tickets: Tickets;

  constructor(
    link: Link,
    private readonly max = 10_000,
  ) {
    this.tickets = new Tickets(link);
  }

  ticket(): Ticket {
    return this.tickets.take();
  }

  /** The trusted version of the member, or undefined: read it (and remember()). */
  get(memberId: number): number | undefined {
    const e = this.entries.get(memberId);
    if (!e) return undefined;
    if (!this.tickets.connected(e.generation)) {
      this.entries.delete(memberId);
      return undefined;
    }
    // Least recently used first in the Map's order: a hit moves to the end.
    this.entries.delete(memberId);
    this.entries.set(memberId, e);
    return e.version;
  }

  /** A version read from the database since `ticket` was taken. */
  remember(memberId: number, version: number | null | undefined, ticket: Ticket): void {
    if (version === null || version === undefined) return;
    if (!this.tickets.valid(ticket)) return;
    this.entries.delete(memberId);
    this.entries.set(memberId, { version, generation: ticket.generation });
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  /** The member's version changed (here, or in another process): read it again next time. */
  forget(memberId: number): void {
    this.tickets.tell();
    this.entries.delete(memberId);
  }

  get size(): number {
    return this.entries.size;
  }
}

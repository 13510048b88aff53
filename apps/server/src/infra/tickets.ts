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

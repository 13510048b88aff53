/**
 * The newest session version each member had in the database, as read by the statement that
 * counted a request for the rate limit (plugins/app/rate-limit.ts). The check of a token's `sv`
 * claim reads it from here instead of asking the database again, so ending sessions costs no
 * round trip a request did not already make (issue 8, item 7).
 *
 * An entry only counts for a request when its statement STARTED after the request arrived: that
 * statement saw every logout committed before the request, which is what the check needs.
 */
export interface Seen {
  /** null: the member no longer exists. */
  version: number | null;
  /** When the statement that read it started (ms since the epoch). */
  at: number;
}

const MAX_ENTRIES = 50_000;

export class SessionRegistry {
  private readonly seen = new Map<number, Seen>();

  record(memberId: number, version: number | null, at: number): void {
    const old = this.seen.get(memberId);
    if (old && old.at > at) return;
    if (!old && this.seen.size >= MAX_ENTRIES) this.seen.clear();
    this.seen.set(memberId, { version, at });
  }

  /** The version read for this member since `since`, or undefined when none was. */
  since(memberId: number, since: number): Seen | undefined {
    const s = this.seen.get(memberId);
    return s && s.at >= since ? s : undefined;
  }
}

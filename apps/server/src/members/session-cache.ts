import { NotifiedCache, type Ticket } from '../infra/tickets.ts';

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
 * The rule is NotifiedCache's (infra/tickets.ts).
 */
export class SessionCache extends NotifiedCache<number, number> {}

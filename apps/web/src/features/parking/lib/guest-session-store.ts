import { z } from 'zod';

/** Not a spec key: the Quick Park session this browser paid for or opened (docs/product.md#quick-park). */
export const GUEST_SESSION_KEY = 'parkit_quick_park';

/**
 * What a guest's live session needs to come back after a reload or a closed tab: the session id
 * and the guest token, exactly what the texted link (/QuickParkRegister?session=&token=) carries,
 * and nothing more (no phone number, no card). Whoever can read this browser's storage could
 * already open that link from the phone's messages, so it lets no one do more than the link
 * does: see the session, extend it on the card it was paid with, stop it. It goes when the session
 * is seen ended, when the token expires (24 hours) and with the rest of the storage at logout.
 */
const Stored = z.object({
  SessionId: z.number().int().positive(),
  GuestToken: z.string().min(1),
  ExpiresAt: z.string(),
});
export type StoredGuestSession = z.infer<typeof Stored>;

export const guestSessionStore = {
  get(now = Date.now()): StoredGuestSession | null {
    try {
      const parsed = Stored.safeParse(JSON.parse(localStorage.getItem(GUEST_SESSION_KEY) ?? 'null'));
      if (parsed.success && Date.parse(parsed.data.ExpiresAt) > now) return parsed.data;
      localStorage.removeItem(GUEST_SESSION_KEY);
    } catch {
      // Storage unavailable or not ours: nothing to restore.
    }
    return null;
  },
  set(s: StoredGuestSession) {
    try {
      localStorage.setItem(GUEST_SESSION_KEY, JSON.stringify(s));
    } catch {
      // Storage full or refused: the texted link still opens the session.
    }
  },
  /** Forgets the stored session if it is this one (an ended session is not restored). */
  forget(sessionId: number) {
    if (guestSessionStore.get()?.SessionId === sessionId) localStorage.removeItem(GUEST_SESSION_KEY);
  },
};

/** When a guest token stops working (its `exp`); a day from now if it cannot be read. */
export function tokenExpiry(token: string, now = Date.now()): string {
  try {
    const part = (token.split('.')[1] ?? '').replace(/-/g, '+').replace(/_/g, '/');
    const exp = (JSON.parse(atob(part)) as { exp?: unknown }).exp;
    if (typeof exp === 'number') return new Date(exp * 1000).toISOString();
  } catch {
    // Not a JWT we can read: the server decides anyway.
  }
  return new Date(now + 24 * 3_600_000).toISOString();
}

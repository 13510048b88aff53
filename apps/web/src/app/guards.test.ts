import { describe, expect, it } from 'vitest';
import { redirectIfSignedIn, requireAuth } from './guards.ts';

/** What a loader threw: the redirect's target, or null when it let the route load. */
function target(guard: () => unknown): string | null {
  try {
    guard();
    return null;
  } catch (thrown) {
    if (!(thrown instanceof Response)) throw thrown;
    expect(thrown.status).toBe(302);
    return thrown.headers.get('location');
  }
}

describe('route guards (docs/product.md#screens and #states)', () => {
  it('protected routes need a stored access token or the guest flag, else /parkit', () => {
    expect(target(requireAuth)).toBe('/parkit');
    localStorage.setItem('access_token', 't');
    expect(target(requireAuth)).toBeNull();
    localStorage.clear();
    localStorage.setItem('is_guestUser', 'true');
    expect(target(requireAuth)).toBeNull();
  });

  it("only the exact 'true' is the guest flag, and an empty token is none", () => {
    for (const flag of ['false', 'TRUE', '1', '']) {
      localStorage.setItem('is_guestUser', flag);
      expect(target(requireAuth), flag).toBe('/parkit');
    }
    localStorage.clear();
    localStorage.setItem('access_token', '');
    expect(target(requireAuth)).toBe('/parkit');
    // Other keys alone sign nobody in.
    localStorage.setItem('user_data', '{}');
    localStorage.setItem('client_id', '3');
    expect(target(requireAuth)).toBe('/parkit');
  });

  it('/login and /parkit send a member or a guest to /homepage, and let others in', () => {
    expect(target(redirectIfSignedIn)).toBeNull();
    localStorage.setItem('is_guestUser', 'true');
    expect(target(redirectIfSignedIn)).toBe('/homepage');
    localStorage.clear();
    localStorage.setItem('access_token', 't');
    expect(target(redirectIfSignedIn)).toBe('/homepage');
  });
});

import { QueryClient } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { persistQueries } from './persist.ts';
import { queryKeys } from './query-keys.ts';
import { clearSession } from './session.ts';
import { connectSession, replaceSession } from './session-store.ts';

/** A fresh cache as the app makes at start: the session from storage, then the kept answers. */
function startApp() {
  const client = new QueryClient();
  connectSession(client);
  const stop = persistQueries(client);
  return { client, stop };
}

const SESSION = ['parking', 'session', 5];
const QUOTE = ['parking', 'quote', { SessionId: 5, DurationMinutes: 30 }];

beforeEach(() => {
  vi.useFakeTimers();
  localStorage.clear();
});
afterEach(() => vi.useRealTimers());

describe('the answers kept for offline use', () => {
  it("come back after a restart for the same member, and only the driver's answers", () => {
    const first = startApp();
    replaceSession({ token: 'a.b.c', userId: '7' });
    first.client.setQueryData(SESSION, { SessionId: 5, EndsAt: '2026-01-01T10:00:00.000Z' });
    first.client.setQueryData(QUOTE, { QuoteId: 'q1' });
    vi.advanceTimersByTime(600);
    first.stop();

    const again = startApp();
    expect(again.client.getQueryData(SESSION)).toEqual({ SessionId: 5, EndsAt: '2026-01-01T10:00:00.000Z' });
    // Its time of arrival too: the countdown's clock offset is read from it.
    expect(again.client.getQueryState(SESSION)?.dataUpdatedAt).toBe(first.client.getQueryState(SESSION)?.dataUpdatedAt);
    expect(again.client.getQueryData(QUOTE)).toBeUndefined();
    again.stop();
  });

  it('a reload within the half second keeps the newest answer, not the one before it', () => {
    const first = startApp();
    replaceSession({ token: 'a.b.c', userId: '7' });
    first.client.setQueryData(queryKeys.vehicles, [{ VehicleID: 1 }]);
    vi.advanceTimersByTime(600);
    first.client.setQueryData(queryKeys.vehicles, []);
    vi.advanceTimersByTime(100);
    window.dispatchEvent(new Event('pagehide'));
    first.stop();

    const again = startApp();
    expect(again.client.getQueryData(queryKeys.vehicles)).toEqual([]);
    again.stop();
  });

  it('another member signed in on the device does not get them', () => {
    const first = startApp();
    replaceSession({ token: 'a.b.c', userId: '7' });
    first.client.setQueryData(SESSION, { SessionId: 5 });
    vi.advanceTimersByTime(600);
    first.stop();
    replaceSession({ token: 'd.e.f', userId: '8' });

    const other = startApp();
    expect(other.client.getQueryData(SESSION)).toBeUndefined();
    other.stop();
  });

  it('a guest keeps nothing, and logout forgets what was kept', () => {
    const guest = startApp();
    replaceSession({ guest: true });
    guest.client.setQueryData(SESSION, { SessionId: 5 });
    vi.advanceTimersByTime(600);
    guest.stop();
    expect(Object.keys(localStorage).filter((k) => k.startsWith('parkit_offline_cache:'))).toEqual([]);

    const member = startApp();
    replaceSession({ token: 'a.b.c', userId: '7' });
    member.client.setQueryData(SESSION, { SessionId: 5 });
    vi.advanceTimersByTime(600);
    expect(Object.keys(localStorage)).toContain('parkit_offline_cache:7');
    clearSession();
    expect(Object.keys(localStorage)).not.toContain('parkit_offline_cache:7');
    expect(member.client.getQueryData(queryKeys.session)).toMatchObject({ token: null });
    member.stop();
  });
});

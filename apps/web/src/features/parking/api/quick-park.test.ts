import { afterEach, describe, expect, it, vi } from 'vitest';
import { startGuest } from './quick-park.ts';

afterEach(() => vi.unstubAllGlobals());

describe('startGuest', () => {
  it('sends an Idempotency-Key derived from the quote, the same for a second tap', async () => {
    const fetch = vi.fn(() => Promise.resolve(new Response(JSON.stringify({ SessionId: 1 }), { status: 201 })));
    vi.stubGlobal('fetch', fetch);
    await startGuest('guest-token', '0b9f1c1e-5d0e-4c6b-9a55-2f3f4b1f0e11', { CardToken: 'tok_1' });
    await startGuest('guest-token', '0b9f1c1e-5d0e-4c6b-9a55-2f3f4b1f0e11', { ExpressToken: 'tok_2' });
    const headers = fetch.mock.calls.map((c) => new Headers((c as unknown as [string, RequestInit])[1].headers));
    expect(headers.map((h) => h.get('idempotency-key'))).toEqual([
      'Guest/Start:0b9f1c1e-5d0e-4c6b-9a55-2f3f4b1f0e11',
      'Guest/Start:0b9f1c1e-5d0e-4c6b-9a55-2f3f4b1f0e11',
    ]);
    expect(headers[0]!.get('x-guest-token')).toBe('guest-token');
  });
});

import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useIntentKey } from './intent-key.ts';

// A helper a mutation run found with no test of its own.
describe('useIntentKey (one Idempotency-Key per payment intent)', () => {
  it('the same key for the same request, a new one when the request changes or after a success', () => {
    const { result } = renderHook(() => useIntentKey());
    const first = result.current.keyFor({ Amount: 10 });
    expect(first).toMatch(/^[0-9a-f]{32}$/);
    expect(result.current.keyFor({ Amount: 10 })).toBe(first);
    const other = result.current.keyFor({ Amount: 20 });
    expect(other).not.toBe(first);
    expect(result.current.keyFor({ Amount: 20 })).toBe(other);
    act(() => result.current.done());
    expect(result.current.keyFor({ Amount: 20 })).not.toBe(other);
  });

  it('keys are random, and bytes under 16 keep their leading zero', () => {
    const spy = vi.spyOn(crypto, 'getRandomValues').mockImplementationOnce((a) => {
      (a as Uint8Array).set([0, 1, 15, 16, 255, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 171]);
      return a;
    });
    const { result } = renderHook(() => useIntentKey());
    expect(result.current.keyFor({})).toBe('00010f10ff00000000000000000000ab');
    spy.mockRestore();
    const keys = new Set(Array.from({ length: 20 }, (_, i) => result.current.keyFor({ i })));
    expect(keys.size).toBe(20);
  });
});

import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useCountdown } from './use-countdown.ts';

describe('useCountdown', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('counts whole seconds down to 0 and stays there', async () => {
    const end = Date.now() + 2_500;
    const { result } = renderHook(() => useCountdown(end));
    expect(result.current).toBe(3);
    await act(() => vi.advanceTimersByTimeAsync(1_000));
    expect(result.current).toBe(2);
    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(result.current).toBe(0);
    expect(vi.getTimerCount()).toBe(0); // nothing ticks once it is over
  });

  it('counts a new end from when it arrives, not from the last tick', async () => {
    const { result, rerender } = renderHook(({ end }) => useCountdown(end), {
      initialProps: { end: Date.now() + 1_000 },
    });
    await act(() => vi.advanceTimersByTimeAsync(1_700));
    expect(result.current).toBe(0);
    rerender({ end: Date.now() + 30_000 });
    expect(result.current).toBe(30);
  });

  it('is right again at once when the page shows after the phone slept', () => {
    const end = Date.now() + 60_000;
    const { result } = renderHook(() => useCountdown(end));
    vi.setSystemTime(Date.now() + 45_000); // the clock moved, no tick ran
    act(() => {
      document.dispatchEvent(new Event('visibilitychange'));
    });
    expect(result.current).toBe(15);
  });

  it('has nothing to count without an end', () => {
    expect(renderHook(() => useCountdown(null)).result.current).toBe(0);
    expect(renderHook(() => useCountdown(Number.NaN)).result.current).toBe(0);
  });
});

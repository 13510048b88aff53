import { describe, expect, it, vi } from 'vitest';
import { lazyScreen } from './lazy.ts';

describe('lazyScreen', () => {
  it('loads a chunk once when it works', async () => {
    const load = vi.fn().mockResolvedValue({ Component: 'screen' });
    await expect(lazyScreen(load)()).resolves.toEqual({ Component: 'screen' });
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('retries a failed chunk once', async () => {
    const load = vi
      .fn()
      .mockRejectedValueOnce(new TypeError('Failed to fetch dynamically imported module'))
      .mockResolvedValue({ ok: 1 });
    await expect(lazyScreen(load)()).resolves.toEqual({ ok: 1 });
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('gives up after the retry with a ChunkLoadError', async () => {
    const load = vi.fn().mockRejectedValue(new TypeError('Failed to fetch'));
    const err = await lazyScreen(load)().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe('ChunkLoadError');
    expect((err as Error).message).toMatch(/^Loading chunk \d+ failed$/);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('fails a chunk that never arrives after the time-out', async () => {
    vi.useFakeTimers();
    try {
      const load = vi.fn(() => new Promise<never>(() => {}));
      const result = lazyScreen(load, 1000)().catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(2100);
      expect(((await result) as Error).name).toBe('ChunkLoadError');
    } finally {
      vi.useRealTimers();
    }
  });
});

import { describe, expect, it } from 'vitest';

describe('zod without eval', () => {
  it('zod reads the setting the entry makes before it loads', async () => {
    await import('./zod-without-eval.ts');
    const { config, z } = await import('zod');
    expect(config().jitless).toBe(true);
    // Parsing still works, interpreted.
    expect(z.object({ a: z.string() }).parse({ a: 'x' })).toEqual({ a: 'x' });
  });
});

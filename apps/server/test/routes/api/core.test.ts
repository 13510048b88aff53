import { describe, expect, it } from 'vitest';
import { buildTestApp, publicList } from '../../helpers.ts';

const { app } = await buildTestApp();

describe('GET /api/Core/States', () => {
  it('lists the 50 states and DC as two-letter codes, publicly, with a cache lifetime', async () => {
    const states = await publicList<string>(app, '/api/Core/States');
    expect(states).toHaveLength(51);
    expect(states.every((s) => /^[A-Z]{2}$/.test(s))).toBe(true);
    expect(new Set(states).size).toBe(51);
    expect(states).toEqual([...states].sort());
    expect(states.slice(0, 2)).toEqual(['AK', 'AL']);
    expect(states).toEqual(expect.arrayContaining(['DC', 'TX', 'CA', 'NY', 'WY']));
  });

  it('ignores a query string and answers only GET', async () => {
    const res = await app.inject({ method: 'GET', url: "/api/Core/States?x=' OR 1=1 --" });
    expect(res.json<string[]>()).toHaveLength(51);
    const post = await app.inject({ method: 'POST', url: '/api/Core/States', payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toEqual({ message: 'Not found' });
  });
});

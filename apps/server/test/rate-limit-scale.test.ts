import { describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers.ts';

// ADDRESS_RATE_LIMIT_SCALE lets a test run whose every request comes from one address (e2e)
// sign in often; it multiplies the per-address limits and nothing else.
const { app } = await buildTestApp({ ADDRESS_RATE_LIMIT_SCALE: 2 });

const sendCode = (i: number) =>
  app.inject({
    method: 'POST',
    url: '/api/Account/SendOtp',
    remoteAddress: '10.9.0.1',
    payload: { PhoneNumber: `51200${String(i).padStart(5, '0')}` },
  });

describe('ADDRESS_RATE_LIMIT_SCALE', () => {
  it('doubles the per-address code limit (20 an hour) when set to 2', async () => {
    for (let i = 0; i < 40; i++) expect((await sendCode(i)).statusCode).toBe(202);
    const over = await sendCode(40);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
  });
});

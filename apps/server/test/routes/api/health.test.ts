import { describe, expect, it } from 'vitest';
import { buildTestApp } from '../../helpers.ts';

const { app, database } = await buildTestApp();

describe('GET /api/health', () => {
  it('answers ok with the driver in use', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', database: database.driver });
  });

  it('answers an unknown API path with a JSON 404', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/Nothing/Here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found' });
  });

  it('sends security headers', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });
});

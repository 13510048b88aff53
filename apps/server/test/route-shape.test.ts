import { describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers.ts';
import { operationId } from '../src/plugins/external/swagger.ts';

// routes/README.md: one shape for every route. These read the OpenAPI document, so a route added
// later is checked without anyone writing a test for it.
const { app } = await buildTestApp();

interface Operation {
  operationId?: string;
  security?: Array<Record<string, string[]>>;
  responses?: Record<string, unknown>;
}
const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
  paths: Record<string, Record<string, Operation>>;
  servers?: unknown[];
}>();
const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({ path, method, op })),
);
const memberOnly = operations.filter(({ op }) => op.security?.some((s) => 'bearer' in s));

describe('the OpenAPI document', () => {
  it('gives every operation a unique operationId, its security and its 4xx answers, and names a server', () => {
    expect(operations.length).toBeGreaterThan(20);
    const ids = operations.map(({ op }) => op.operationId);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    for (const { path, method, op } of operations) {
      expect(op.security, `${method} ${path}`).toBeDefined();
      expect(
        Object.keys(op.responses ?? {}).some((s) => s.startsWith('4')),
        `${method} ${path}`,
      ).toBe(true);
      expect(op.responses, `${method} ${path}`).toHaveProperty('429');
    }
    expect(doc.servers).toHaveLength(1);
  });

  it('lists null in every nullable enum (OpenAPI 3.0: nullable does not reach enum)', () => {
    const missing: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      const schema = node as { nullable?: boolean; enum?: unknown[] };
      if (schema.nullable === true && schema.enum && !schema.enum.includes(null)) missing.push(at);
      for (const [k, v] of Object.entries(node)) walk(v, `${at}/${k}`);
    };
    walk(doc.paths, '#/paths');
    expect(missing).toEqual([]);
    // The history's DistanceFrom is one of them (null when the history is not sorted by distance).
    expect(JSON.stringify(doc.paths['/api/Parking/Sessions'])).toContain('"enum":["position","cityCentre",null]');
  });

  it('documents 401 and 403 on every member-only operation, and none on the public ones', () => {
    expect(memberOnly.length).toBeGreaterThan(10);
    for (const { path, method, op } of memberOnly) {
      expect(Object.keys(op.responses ?? {}), `${method} ${path}`).toEqual(expect.arrayContaining(['401', '403']));
    }
    const pub = operations.filter(({ op }) => op.security?.length === 0).map(({ method, path }) => `${method} ${path}`);
    expect(pub).toEqual(expect.arrayContaining(['post /token', 'get /api/Core/States', 'post /api/Account/Register']));
  });
});

describe('the member-only scope', () => {
  // Every documented member-only operation refuses a request without a token (or with a forged
  // one) before it reads anything: authentication is added once, by the scope.
  it.each(['', 'Bearer not-a-token'])(
    'answers 401 to every member-only operation (authorization %j)',
    async (authorization) => {
      for (const { path, method } of memberOnly) {
        const url = path.replace(/\{[^}]+\}/g, '1');
        const res = await app.inject({
          method: method.toUpperCase() as 'GET',
          url,
          headers: authorization ? { authorization } : {},
          payload: method === 'get' ? undefined : {},
        });
        expect(res.statusCode, `${method} ${path}`).toBe(401);
        expect(res.json(), `${method} ${path}`).toMatchObject({ message: 'Unauthorized' });
      }
    },
  );
});

describe('operationId', () => {
  it('is the method and the path after /api, parameters as By<Name>', () => {
    expect(operationId('GET', '/api/Vehicle/Models/:makeId')).toBe('getVehicleModelsByMakeId');
    expect(operationId('POST', '/token')).toBe('postToken');
    expect(operationId('GET', '/api/Parking/Sessions.csv')).toBe('getParkingSessionsCsv');
  });
});

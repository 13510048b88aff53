import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { as, buildTestApp, freshDatabase, registerAndSignIn } from '../helpers.ts';
import { listening, rawClient } from './listen.ts';
import { fill, operations } from '../openapi.ts';
import { REFERENCE_CACHE } from '../../src/vehicles/index.ts';
import { CDS_CACHE_CONTROL } from '../../src/opendata/index.ts';

// Headers and what the server exposes.
const dist = mkdtempSync(join(tmpdir(), 'parkit-dist-'));
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head></head><body><div id="root"></div></body></html>');
writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
writeFileSync(join(dist, 'assets', 'index-abc123.js.map'), '{"version":3,"sources":["src/secret.ts"]}');

const { app } = await buildTestApp({ WEB_DIST: dist });
const { app: prod } = await buildTestApp({ WEB_DIST: dist, NODE_ENV: 'production', DEV_OUTBOX: false });
const database = await freshDatabase();
afterAll(() => database.close());
const { port } = await listening(database);

describe('item 10: headers and exposure', () => {
  it('marks every personal API answer no-store', async () => {
    const who = await registerAndSignIn(app);
    for (const url of ['/api/Account/Details', '/api/Vehicle/List', '/api/Account/ParkingOptions']) {
      const res = await as(app, who, { method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['cache-control'], url).toBe('no-store');
    }
    const token = await app.inject({
      method: 'POST',
      url: '/token',
      payload: { grant_type: 'refresh_token', refresh_token: who.refreshToken },
    });
    expect(token.headers['cache-control']).toBe('no-store');
    // Errors too.
    expect((await app.inject({ method: 'GET', url: '/api/Account/Details' })).headers['cache-control']).toBe(
      'no-store',
    );
  });

  it('marks the answer of every member-only read no-store, whatever its status (a route added later too)', async () => {
    const who = await registerAndSignIn(app);
    // Live streams (server-sent events) write their own no-store and never end.
    const reads = (await operations(app)).filter(
      (o) => o.memberOnly && o.method === 'GET' && !/\/events$/i.test(o.path),
    );
    expect(reads.length).toBeGreaterThan(10);
    for (const o of reads) {
      const url = fill(o.path, () => '1');
      const res = await as(app, who, { method: 'GET', url });
      expect(res.headers['cache-control'] ?? '(no Cache-Control)', `${url} -> ${res.statusCode}`).toMatch(
        /\bno-store\b/,
      );
    }
  });

  it('marks the answer of every API operation no-store, of any method and scope, whatever its status', async () => {
    // No-store is set once, for every API answer (security.ts), not again by each route: this
    // walks every operation of the document, signed out and signed in, with an empty body. Only
    // the public reference lists say otherwise (a cache lifetime); live streams write their own
    // no-store and never end.
    const who = await registerAndSignIn(app);
    const all = (await operations(app)).filter((o) => !/\/events$/i.test(o.path));
    expect(all.length).toBeGreaterThan(60);
    let cacheable = 0;
    for (const o of all) {
      const url = fill(o.path, () => '1');
      const payload = o.method === 'GET' || o.method === 'DELETE' ? undefined : {};
      for (const res of [
        await app.inject({ method: o.method as 'GET', url, payload }),
        await as(app, who, { method: o.method as 'GET', url, payload }),
      ]) {
        const cache = res.headers['cache-control'] ?? '(no Cache-Control)';
        if (cache === REFERENCE_CACHE && o.method === 'GET' && !o.memberOnly && res.statusCode === 200) cacheable++;
        // The CDS feed is public and cacheable by design (ETag, 304; docs/open-data.md).
        else if (
          cache === CDS_CACHE_CONTROL &&
          o.method === 'GET' &&
          o.path.startsWith('/cds/') &&
          res.statusCode === 200
        )
          cacheable++;
        else expect(cache, `${o.method} ${url} -> ${res.statusCode}`).toMatch(/\bno-store\b/);
      }
    }
    // The reference lists: vehicle makes, models, colors and the states.
    expect(cacheable).toBeGreaterThanOrEqual(6);
  });

  it('sends a Permissions-Policy and frame-ancestors, with no X-Frame-Options to contradict it', async () => {
    for (const url of ['/', '/api/Core/States']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.headers['permissions-policy']).toContain('camera=()');
      expect(res.headers['permissions-policy']).toContain('geolocation=(self)');
      expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      expect(res.headers['x-frame-options']).toBeUndefined();
    }
  });

  it.each(['/API/VEHICLE/LIST', '/Api/Nope', '/api/nope/deeper', '/API', '/TOKEN/x'])(
    'answers the unknown API path %s with a JSON 404, never the page',
    async (url) => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.json()).toEqual({ message: 'Not found' });
    },
  );

  it('reads a gzip-compressed request body (a POST); a GET with a Content-Encoding header still answers', async () => {
    const body = gzipSync(JSON.stringify({ PhoneNumber: 'not a phone' }));
    const res = await app.inject({
      method: 'POST',
      url: '/api/Account/SendOtp',
      payload: body,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    // Read and validated as JSON: the field's own error, not a body that could not be parsed.
    expect(res.statusCode).toBe(400);
    expect(res.json<{ errors: { field: string }[] }>().errors.map((e) => e.field)).toEqual(['PhoneNumber']);
    const read = await app.inject({ method: 'GET', url: '/api/health', headers: { 'content-encoding': 'gzip' } });
    expect(read.statusCode).toBe(200);
  });

  it('serves no source maps in production', async () => {
    expect((await prod.inject({ method: 'GET', url: '/assets/index-abc123.js' })).statusCode).toBe(200);
    const map = await prod.inject({ method: 'GET', url: '/assets/index-abc123.js.map' });
    expect(map.statusCode).toBe(404);
    expect(map.body).not.toContain('secret.ts');
  });

  it('has no /api/docs in production unless enabled', async () => {
    expect((await prod.inject({ method: 'GET', url: '/api/docs' })).statusCode).toBe(404);
    expect((await prod.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(404);
    const enabled = await buildTestApp({ NODE_ENV: 'production', API_DOCS: 'true' });
    expect((await enabled.app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/docs/json' })).statusCode).toBe(200);
  });

  // An API answer is data, never a document: the headers that protect data, not the page's.
  const DOCUMENT_ONLY = [
    'cross-origin-opener-policy',
    'origin-agent-cluster',
    'x-dns-prefetch-control',
    'x-download-options',
    'x-permitted-cross-domain-policies',
    'x-xss-protection',
  ];
  it.each([
    ['GET', '/api/health', 200],
    ['GET', '/api/Nope', 404],
    ['GET', '/api/Account/Details', 401],
    ['POST', '/token', 400],
  ] as const)(
    'an API answer (%s %s, %i) carries the headers of data and none of a document',
    async (method, url, status) => {
      const res = await app.inject({ method, url });
      expect(res.statusCode).toBe(status);
      expect(res.headers['content-security-policy']).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['permissions-policy']).toContain('camera=()');
      expect(res.headers['cache-control']).toBe('no-store');
      for (const name of DOCUMENT_ONLY) expect(res.headers[name], name).toBeUndefined();
    },
  );

  it.each(['/', '/findparking', '/api/docs'])(
    'a page (%s) carries the page’s CSP and the document headers',
    async (url) => {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode).toBeLessThan(400);
      // frame-ancestors: the test above (the OpenAPI browser's own CSP admits 'self').
      expect(res.headers['content-security-policy']).toContain("default-src 'self'");
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['permissions-policy']).toContain('geolocation=(self)');
      expect(res.headers['x-frame-options']).toBeUndefined();
    },
  );

  it('sends x-request-id on every answer: the caller’s when it is a plain token, else a new one', async () => {
    const answers = [
      await app.inject({ method: 'GET', url: '/api/health' }),
      await app.inject({ method: 'GET', url: '/api/Nope' }),
      await app.inject({ method: 'POST', url: '/token', payload: {} }),
      await app.inject({ method: 'GET', url: '/' }),
    ];
    const ids = answers.map((r) => r.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(new Set(ids).size).toBe(ids.length);
    const given = await app.inject({ method: 'GET', url: '/api/Nope', headers: { 'x-request-id': 'lb-7f3a_01' } });
    expect(given.headers['x-request-id']).toBe('lb-7f3a_01');
    const hostile = await app.inject({
      method: 'GET',
      url: '/api/health',
      headers: { 'x-request-id': 'a b\u00e9<script>' },
    });
    expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers a request without a Host header with a JSON 400', async () => {
    const c = rawClient(port);
    await c.connected;
    c.socket.write('GET /api/health HTTP/1.1\r\nConnection: close\r\n\r\n');
    await c.closed;
    const [head, body] = c.received().split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 400 /);
    expect(head).toMatch(/content-type: application\/json/i);
    expect(head).toMatch(/x-request-id: [0-9a-f-]{36}/i);
    expect(JSON.parse(body!)).toEqual({
      message: 'The Host header is required',
      errors: [{ field: 'host', message: 'The Host header is required' }],
    });
  });
});

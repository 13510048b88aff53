import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildTestApp } from './helpers.ts';

// A stand-in build of the web app: index.html and one hashed asset.
const dist = mkdtempSync(join(tmpdir(), 'parkit-dist-'));
mkdirSync(join(dist, 'assets'));
writeFileSync(join(dist, 'index.html'), '<!doctype html><html><head></head><body><div id="root"></div></body></html>');
writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
// Files are routed when the app starts (wildcard off), so every one is written first. The build
// writes .br and .gz beside an asset (apps/web/precompress.ts; e2e/specs/precompressed.spec.ts
// checks the real build): here with different text, to see which file went out.
const big = `export const big = '${'x'.repeat(20_000)}';`;
writeFileSync(join(dist, 'assets', 'big-1.js'), big);
writeFileSync(join(dist, 'assets', 'big-1.js.br'), brotliCompressSync(`${big}//br`));
writeFileSync(join(dist, 'assets', 'big-1.js.gz'), gzipSync(`${big}//gz`));
// An asset the build did not compress (too small to gain), and JSON above the threshold.
writeFileSync(join(dist, 'assets', 'plain-2.js'), `export const plain = '${'y'.repeat(4_000)}';`);

// The chunks the build lists for a page whose first screen is lazy (apps/web/route-preloads.ts).
mkdirSync(join(dist, '.vite'));
writeFileSync(
  join(dist, '.vite', 'route-preloads.json'),
  JSON.stringify({ '/homepage': ['/assets/provider-1.js', '/assets/homepage-2.js'] }),
);

const { app } = await buildTestApp({ WEB_DIST: dist });

describe('serving the web app', () => {
  it('sends index.html, never cached, for every client route', async () => {
    for (const url of ['/', '/parkit', '/addvehicles?id=3', '/SelectVehicle', '/no/such/page']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('writes the map tile URL and the currency symbol into the page, escaped', async () => {
    const res = await app.inject({ method: 'GET', url: '/findParkingMap' });
    expect(res.body).toContain(
      '<meta name="parkit-map-tile-url" content="https://tile.openstreetmap.org/{z}/{x}/{y}.png" />',
    );
    expect(res.body).toContain('<meta name="parkit-currency-symbol" content="$" />');
    const other = await buildTestApp({ WEB_DIST: dist, CURRENCY_SYMBOL: '"₹<' });
    try {
      const page = await other.app.inject({ method: 'GET', url: '/parkit' });
      expect(page.body).toContain('<meta name="parkit-currency-symbol" content="&quot;₹&lt;" />');
    } finally {
      await other.app.close();
    }
  });

  it("puts the listed chunks of a page's first screen in that page only, as modulepreload links", async () => {
    const links =
      '<link rel="modulepreload" crossorigin href="/assets/provider-1.js"><link rel="modulepreload" crossorigin href="/assets/homepage-2.js"></head>';
    for (const url of ['/homepage', '/HomePage', '/homepage/', '/homepage?x=1']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain(links);
      expect(res.body, url).toContain('<meta name="parkit-map-tile-url"');
    }
    for (const url of ['/parkit', '/homepage/more', '/dashboard']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.body, url).not.toContain('modulepreload');
    }
  });

  it('caches hashed assets for a year', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('answers a missing asset with a JSON 404, not the page', async () => {
    const res = await app.inject({ method: 'GET', url: '/assets/missing-999.js' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toContain('application/json');
  });

  it('answers an unknown API path with JSON even when the app is built', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/Vehicle/Nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found' });
  });

  it('sends the brotli or gzip file the build wrote, as the request accepts, with Vary', async () => {
    const get = (acceptEncoding?: string) =>
      app.inject({
        method: 'GET',
        url: '/assets/big-1.js',
        headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {},
      });
    const br = await get('gzip, deflate, br');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(`${big}//br`);

    const gz = await get('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gz.headers['vary']).toMatch(/accept-encoding/i);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(`${big}//gz`);

    for (const plain of [undefined, 'identity', 'deflate']) {
      const res = await get(plain);
      expect(res.headers['content-encoding'], plain).toBeUndefined();
      expect(res.headers['vary'], plain).toMatch(/accept-encoding/i);
      expect(res.body, plain).toBe(big);
    }
  });

  it('does not compress a built file per request', async () => {
    const res = await app.inject({
      method: 'GET',
      url: '/assets/plain-2.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toMatch(/^export const plain/);
  });

  it('still compresses API answers and the page', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(res.rawPayload).toString())).toHaveProperty('openapi');
  });

  it('serves the OpenAPI document generated from the schemas', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ openapi: string; paths: Record<string, unknown> }>();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/token', '/api/Account/Register', '/api/Account/Details', '/api/health']),
    );
  });
});

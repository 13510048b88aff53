import { extname } from 'node:path';
import fp from 'fastify-plugin';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import { MESSAGES } from '@parkit/contract';
import { helmetHeaders } from '../../lib/library-internals.ts';

/**
 * Security headers with a CSP that admits the app and the map tiles; compression; forms. Cookies
 * are registered only by the routes that read or set one (routes/cookies.ts).
 */
export default fp<{ tileUrl: string; stripe?: boolean }>(
  async (app, { tileUrl, stripe = false }) => {
    const tileOrigin = tileOriginPattern(tileUrl);
    // Stripe Elements (only when Stripe is the payment provider): Stripe.js, its frames
    // and its API, as Stripe documents for a CSP (https://docs.stripe.com/security/guide#content-security-policy).
    const js = stripe ? ['https://js.stripe.com', 'https://*.js.stripe.com'] : [];
    // Helmet's headers are the same on every answer: worked out once here (helmetHeaders, in
    // lib/library-internals.ts) and set with one call per request (@fastify/helmet rebuilt
    // helmet, CSP parsing included, on every request).
    const pageHeaders = helmetHeaders({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...js],
          // Leaflet and Radix set inline styles on elements.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...(tileOrigin ? [tileOrigin] : [])],
          connectSrc: ["'self'", ...(stripe ? ['https://api.stripe.com'] : [])],
          ...(stripe ? { frameSrc: ["'self'", ...js, 'https://hooks.stripe.com'] } : {}),
          fontSrc: ["'self'", 'data:'],
          objectSrc: ["'none'"],
          frameAncestors: ["'none'"],
          baseUri: ["'self'"],
          formAction: ["'self'"],
        },
      },
      crossOriginEmbedderPolicy: false,
      // CSP frame-ancestors 'none' says it; X-Frame-Options SAMEORIGIN contradicted it.
      frameguard: false,
    });
    pageHeaders['permissions-policy'] = PERMISSIONS_POLICY;
    const apiHeaders = apiAnswerHeaders(pageHeaders);
    // One hook, in callback style: no promise per request for work that never waits.
    app.addHook('onRequest', (req, reply, done) => {
      void reply.headers(isApiPath(req.url) && !isDocsPath(req.url) ? apiHeaders : pageHeaders);
      // The request's id (server-instance.ts genReqId), on its log lines: set here, it is on every
      // answer, errors included.
      void reply.header('x-request-id', req.id);
      // HTTP/1.1 requires Host; Node's own refusal is not JSON, so it is let through and refused here.
      if (!req.headers.host) {
        void reply
          .code(400)
          .type('application/json')
          .send({ message: MESSAGES.hostRequired, errors: [{ field: 'host', message: MESSAGES.hostRequired }] });
        return;
      }
      done();
    });
    // Answers made per request (API JSON, CSV, the app's page) are compressed here. The built app's
    // files are compressed once, at build, and served as written (spa.ts): not again.
    app.addHook('onRoute', (route) => {
      if (!isApiPath(route.url) && extname(route.url) !== '') route.compress = false;
      // A GET has no body to decompress: no request-decompression hook on every read.
      if ([route.method].flat().every((m) => m === 'GET' || m === 'HEAD')) route.decompress = false;
    });
    await app.register(compress, { global: true, threshold: 1024 });
    await app.register(formbody, { bodyLimit: 16 * 1024 });
  },
  { name: 'security' },
);

/**
 * The headers of an API answer (JSON, CSV, a PDF, an event stream): data, never a document that a
 * browser renders, so they carry what protects a response of data (OWASP's REST Security Cheat
 * Sheet): a CSP that lets it load and frame nothing, nosniff, HSTS, Cross-Origin-Resource-Policy,
 * Referrer-Policy, and never stored (Cache-Control: no-store; a route that may be cached, the
 * reference lists, sets its own over it). Issue 8's Permissions-Policy and frame-ancestors stay.
 * Helmet's headers that govern only a document (the page's CSP, Cross-Origin-Opener-Policy,
 * Origin-Agent-Cluster, X-DNS-Prefetch-Control, X-Download-Options, X-Permitted-Cross-Domain-Policies,
 * X-XSS-Protection) go on pages only (a health answer was 1,155 bytes with them, 717 without).
 */
export function apiAnswerHeaders(page: Record<string, string>): Record<string, string> {
  const kept = [
    'strict-transport-security',
    'x-content-type-options',
    'cross-origin-resource-policy',
    'referrer-policy',
    'permissions-policy',
  ];
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    ...Object.fromEntries(kept.filter((name) => page[name] !== undefined).map((name) => [name, page[name]!])),
    'cache-control': 'no-store',
  };
}

/** The browser features the app uses (geolocation for Find Parking); everything else off. */
export const PERMISSIONS_POLICY =
  'geolocation=(self), camera=(), microphone=(), payment=(self), usb=(), serial=(), bluetooth=(), magnetometer=(), gyroscope=(), accelerometer=(), interest-cohort=()';

/** The OpenAPI browser (swagger.ts): a page under /api, with the page's headers (its own CSP). */
const isDocsPath = (url: string) => /^\/api\/docs(\/|$|\?)/.test(url);

/** /api/… in any letter case, the token endpoint, and the open data: /cds/… (docs/open-data.md) and /apds/… (docs/apds.md). */
export const isApiPath = (url: string) => /^\/(api(\/|$|\?)|token(\/|$|\?)|cds(\/|$|\?)|apds(\/|$|\?))/i.test(url);

/** 'https://{s}.tile.example.org/{z}/{x}/{y}.png' → 'https://*.tile.example.org'. */
export function tileOriginPattern(url: string): string | null {
  const m = /^(https?:\/\/)([^/]+)/.exec(url);
  if (!m) return null;
  return m[1] + m[2]!.replace(/\{[a-z]\}/g, '*');
}

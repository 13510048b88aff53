import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';

/** Security headers with a CSP that admits the app and the map tiles; compression; forms; cookies. */
export default fp<{ tileUrl: string; stripe?: boolean }>(
  async (app, { tileUrl, stripe = false }) => {
    const tileOrigin = tileOriginPattern(tileUrl);
    // Stripe Elements (issue 10, only when Stripe is the payment provider): Stripe.js, its frames
    // and its API, as Stripe documents for a CSP (https://docs.stripe.com/security/guide#content-security-policy).
    const js = stripe ? ['https://js.stripe.com', 'https://*.js.stripe.com'] : [];
    await app.register(helmet, {
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
    });
    await app.register(compress, { global: true, threshold: 1024 });
    await app.register(cookie);
    await app.register(formbody, { bodyLimit: 16 * 1024 });
  },
  { name: 'security' },
);

/** 'https://{s}.tile.example.org/{z}/{x}/{y}.png' → 'https://*.tile.example.org'. */
export function tileOriginPattern(url: string): string | null {
  const m = /^(https?:\/\/)([^/]+)/.exec(url);
  if (!m) return null;
  return m[1] + m[2]!.replace(/\{[a-z]\}/g, '*');
}

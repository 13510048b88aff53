import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';

/** Security headers with a CSP that admits the app and the map tiles; compression; forms; cookies. */
export default fp<{ tileUrl: string }>(
  async (app, { tileUrl }) => {
    const tileOrigin = tileOriginPattern(tileUrl);
    await app.register(helmet, {
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          // Leaflet and Radix set inline styles on elements.
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', ...(tileOrigin ? [tileOrigin] : [])],
          connectSrc: ["'self'"],
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

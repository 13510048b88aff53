import { existsSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { MESSAGES } from '@parkit/contract';
import { isApiPath } from './security.ts';

/**
 * Serves the built web app: hashed assets cached for a year, index.html never cached and sent for
 * every client route. Unknown API paths and missing files get a JSON 404 (a trap in docs/architecture.md#libraries-and-their-traps). Files
 * go out as the build compressed them (apps/web/precompress.ts writes .br and .gz beside each):
 * brotli or gzip as the request accepts, else the file itself, always with Vary: Accept-Encoding
 * (compressing per request served 7-11x fewer requests).
 */
export default fp<{ root: string; tileUrl: string; currencySymbol: string; production: boolean }>(
  async (app, { root, tileUrl, currencySymbol, production }) => {
    const hasSpa = existsSync(join(root, 'index.html'));
    // Runtime settings the app reads from the page, so one MAP_TILE_URL drives both the CSP and
    // the map, and one CURRENCY_SYMBOL every amount, a guest's and a first paint's included (a
    // build-time variable would need a rebuild per deployment).
    const indexHtml = hasSpa
      ? readFileSync(join(root, 'index.html'), 'utf8').replace(
          '</head>',
          `<meta name="parkit-map-tile-url" content="${escapeAttr(tileUrl)}" />` +
            `<meta name="parkit-currency-symbol" content="${escapeAttr(currencySymbol)}" /></head>`,
        )
      : '';
    const pages = pagesWithPreloads(root, indexHtml);
    if (hasSpa) {
      await app.register(fastifyStatic, {
        root,
        wildcard: false,
        index: false,
        cacheControl: false,
        preCompressed: true,
        // No public source maps in production, even if a build left some.
        allowedPath: (path) => !(production && path.endsWith('.map')),
        setHeaders(reply, path) {
          void reply.header(
            'cache-control',
            /[\\/]assets[\\/]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    } else {
      app.log.warn({ root }, 'web app not built: only the API is served (npm run build)');
    }
    app.setNotFoundHandler((req, reply) => {
      const path = req.url.split('?')[0] ?? '/';
      const isPage = (req.method === 'GET' || req.method === 'HEAD') && !isApiPath(path) && extname(path) === '';
      if (hasSpa && isPage) {
        return reply
          .header('cache-control', 'no-cache')
          .type('text/html; charset=utf-8')
          .send(pages.get(path.toLowerCase().replace(/(.)\/+$/, '$1')) ?? indexHtml);
      }
      return reply.code(404).send({ message: MESSAGES.notFound });
    });
  },
  { name: 'spa' },
);

/**
 * The page as sent for a path whose first screen is lazy chunks (the web build lists them in
 * .vite/route-preloads.json, apps/web/route-preloads.ts): index.html with a modulepreload link per
 * chunk, so the browser fetches them beside the entry instead of after it has run.
 * Paths are matched as the app's router matches them: any letter case, a trailing slash or not.
 */
function pagesWithPreloads(root: string, indexHtml: string): Map<string, string> {
  const file = join(root, '.vite/route-preloads.json');
  const pages = new Map<string, string>();
  if (!indexHtml || !existsSync(file)) return pages;
  const preloads = JSON.parse(readFileSync(file, 'utf8')) as Record<string, string[]>;
  for (const [path, files] of Object.entries(preloads)) {
    const links = files.map((f) => `<link rel="modulepreload" crossorigin href="${escapeAttr(f)}">`).join('');
    pages.set(path.toLowerCase(), indexHtml.replace('</head>', `${links}</head>`));
  }
  return pages;
}

const escapeAttr = (v: string) => v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

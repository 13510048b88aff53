/**
 * The only build-time variables the client sees (VITE_*), checked once at start. Plain checks,
 * not zod: this module is in the first chunk every driver downloads.
 */
function read(name: 'VITE_APP_ID' | 'VITE_MAP_TILE_URL', fallback: string): string {
  const v: unknown = import.meta.env[name];
  if (v === undefined || v === '') return fallback;
  if (typeof v !== 'string') throw new Error(`${name} must be a string`);
  return v;
}

/**
 * The server writes its MAP_TILE_URL and CURRENCY_SYMBOL into the page; the build-time value (or
 * the server's own default) is the fallback, for the dev server and tests.
 */
function fromPage(name: string): string | null {
  if (typeof document === 'undefined') return null;
  const v = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content;
  return v ? v : null;
}

export const env = {
  VITE_APP_ID: read('VITE_APP_ID', 'parkit-web'),
  VITE_MAP_TILE_URL:
    fromPage('parkit-map-tile-url') ?? read('VITE_MAP_TILE_URL', 'https://tile.openstreetmap.org/{z}/{x}/{y}.png'),
  /** The configured currency's symbol, before any account is read (a guest has none). */
  // eslint-disable-next-line no-restricted-syntax -- the server's default CURRENCY_SYMBOL, its one copy here
  CURRENCY_SYMBOL: fromPage('parkit-currency-symbol') ?? '$',
} as const;

import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { VitePWA } from 'vite-plugin-pwa';
import { compiledCatalogs } from './catalogs.ts';
import { precompress } from './precompress.ts';
import { firstScreenChunk, routePreloads } from './route-preloads.ts';

// The first screens past the landing page: the modules app/router.tsx loads for each route.
const homepage = ['src/app/provider.tsx', 'src/components/layouts/layouts.tsx', 'src/app/routes/homepage.tsx'];
const homepageChunk = firstScreenChunk('homepage', homepage, 4);
// The sign-in screens a new driver meets first (defect 15): the screen, preloaded beside the
// entry instead of fetched after it ran; the data layer is not theirs (app/router.tsx).
const login = ['src/app/routes/login.tsx'];
const register = ['src/app/routes/register.tsx'];
const otp = ['src/app/routes/otp.tsx'];
// The three sign-in screens and their fields in one chunk (what the data layer's chunk does not
// have already): /login fetched 17 scripts, ten of them under 2 KB. The three are about 3 KB gzip.
const signInChunk = firstScreenChunk(
  'sign-in',
  ['src/app/routes/login.tsx', 'src/app/routes/register.tsx', 'src/app/routes/otp.tsx'],
  3,
);

const api = process.env.API_URL ?? 'http://127.0.0.1:3000';

/**
 * ParkIt as an installable app that opens with no connection (docs/architecture.md#offline): the
 * web app manifest, and a Workbox service worker (generated, never hand-written) that keeps the
 * shell and every screen's code. Pages go to the network first, so the server's page (its map
 * setting, its preload links) is used while online, and the last copy, else the shell, offline.
 * API answers are not cached by the worker: the app keeps its own (lib/persist.ts). The app
 * registers the worker after the first screen (main.tsx).
 */
function installable() {
  return VitePWA({
    injectRegister: false,
    registerType: 'autoUpdate',
    filename: 'sw.js',
    manifest: {
      id: '/',
      name: 'ParkIt',
      short_name: 'ParkIt',
      description: 'Find and pay for parking, keep your vehicles and wallet in one place.',
      start_url: '/homepage',
      scope: '/',
      display: 'standalone',
      orientation: 'portrait',
      theme_color: '#0f766e',
      background_color: '#ffffff',
      icons: [
        { src: '/icon-192.png', sizes: '192x192', type: 'image/png' },
        { src: '/icon-512.png', sizes: '512x512', type: 'image/png' },
        { src: '/icon-maskable-512.png', sizes: '512x512', type: 'image/png', purpose: 'maskable' },
        { src: '/favicon.svg', sizes: 'any', type: 'image/svg+xml' },
      ],
    },
    workbox: {
      globPatterns: ['**/*.{js,css,html,svg,png,woff2}'],
      // The Hindi font's files and the largest screens' chunks are kept too.
      maximumFileSizeToCacheInBytes: 4 * 1024 * 1024,
      inlineWorkboxRuntime: true,
      cleanupOutdatedCaches: true,
      clientsClaim: true,
      skipWaiting: true,
      navigateFallback: null,
      importScripts: ['/push-handler.js'],
      runtimeCaching: [
        {
          urlPattern: ({ request, url }) => request.mode === 'navigate' && !url.pathname.startsWith('/api/'),
          handler: 'NetworkFirst',
          options: {
            cacheName: 'pages',
            networkTimeoutSeconds: 4,
            expiration: { maxEntries: 40 },
            precacheFallback: { fallbackURL: '/index.html' },
          },
        },
      ],
    },
  });
}

export default defineConfig({
  plugins: [
    compiledCatalogs(),
    react(),
    tailwindcss(),
    precompress(),
    routePreloads({ '/homepage': homepage, '/login': login, '/register': register, '/otp': otp }),
    homepageChunk.plugin,
    signInChunk.plugin,
    installable(),
  ],
  server: {
    port: 5173,
    // npm run dev: the API runs beside Vite; these paths go to it.
    proxy: { '/api': api, '/token': api },
  },
  // No public source maps in a production build: SOURCEMAP=true builds them for debugging.
  build: {
    target: 'es2022',
    sourcemap: process.env.SOURCEMAP === 'true',
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      // The bundler's timing check measures its plugins' callbacks from the inside, so on a busy
      // machine (a first `npm start` beside other work) it warns about the precompressing and the
      // service worker's build taking a few seconds: noise on a clean install, which prints no
      // warning. Build time is measured by the web bench instead (docs/benchmarks.md).
      checks: { bundlerTimings: false },
      output: {
        // Fewer, larger chunks for the first screens: Lighthouse's slow 4G costs a round
        // trip per handful of requests, and /homepage fetched 18 chunks of 1-11 KB after the entry.
        codeSplitting: {
          groups: [
            // What the entry needs before it renders, as one file (it was three).
            { name: 'first', tags: ['$initial'], priority: 5 },
            // What /homepage's chunk and the sign-in screens' both hold (the API client, the fields):
            // one chunk of its own, or the sign-in screens would fetch /homepage's chunk for it.
            { name: 'first-shared', test: (id) => homepageChunk.has(id) && signInChunk.has(id), priority: 5 },
            // /homepage's screen (the data layer, the tabs, the screen) in one chunk beside the entry.
            homepageChunk.group,
            // Every form's library (react-hook-form, lib/use-schema-form.ts), one file the screens
            // with a form share; zod and the schemas are not in it (they load with a form's first use).
            {
              name: 'forms',
              test: /node_modules[\\/](react-hook-form|@hookform[\\/]resolvers)[\\/]|[\\/]src[\\/]lib[\\/]use-schema-form\.ts$/,
              priority: 4,
            },
            // /login, /register and /otp, after the data layer's and the forms' chunks.
            signInChunk.group,
            // What is left of the data layer (React Query) for the other screens, and the toasts,
            // which come after the first screen (lib/toasts.ts).
            { name: 'data', test: /node_modules[\\/]@tanstack[\\/]/, priority: 2 },
            { name: 'toasts', test: /node_modules[\\/]sonner[\\/]/, priority: 2 },
            // The icons the other screens use (a few hundred bytes each): one file, not one each.
            { name: 'icons', test: /node_modules[\\/]lucide-react[\\/]/, priority: 1 },
          ],
        },
      },
    },
  },
  test: {
    name: 'web',
    environment: 'happy-dom',
    // The Devanagari font's real CSS, so a test sees its @font-face rules arrive with Hindi.
    css: { include: [/noto-sans-devanagari/] },
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['../../vitest.setup.ts', './src/testing/setup.ts'],
  },
});

import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { compiledCatalogs } from './catalogs.ts';
import { precompress } from './precompress.ts';
import { firstScreenChunk, routePreloads } from './route-preloads.ts';

// The first screens past the landing page: the modules app/router.tsx loads for each route.
const homepage = ['src/app/provider.tsx', 'src/components/layouts/layouts.tsx', 'src/app/routes/homepage.tsx'];
const homepageChunk = firstScreenChunk('homepage', homepage, 3);

const api = process.env.API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [
    compiledCatalogs(),
    react(),
    tailwindcss(),
    precompress(),
    routePreloads({ '/homepage': homepage }),
    homepageChunk.plugin,
  ],
  server: {
    port: 5173,
    // npm run dev: the API runs beside Vite; these paths go to it.
    proxy: { '/api': api, '/token': api },
  },
  // No public source maps in a production build (issue 8): SOURCEMAP=true builds them for debugging.
  build: {
    target: 'es2022',
    sourcemap: process.env.SOURCEMAP === 'true',
    chunkSizeWarningLimit: 600,
    rolldownOptions: {
      output: {
        // Fewer, larger chunks for the first screens (issue 9): Lighthouse's slow 4G costs a round
        // trip per handful of requests, and /homepage fetched 18 chunks of 1-11 KB after the entry.
        codeSplitting: {
          groups: [
            // What the entry needs before it renders, as one file (it was three).
            { name: 'first', tags: ['$initial'], priority: 3 },
            // /homepage's screen (the data layer, the tabs, the screen) in one chunk beside the entry.
            homepageChunk.group,
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

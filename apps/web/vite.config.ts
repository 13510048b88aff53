import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { precompress } from './precompress.ts';

const api = process.env.API_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  server: {
    port: 5173,
    // npm run dev: the API runs beside Vite; these paths go to it.
    proxy: { '/api': api, '/token': api },
  },
  // No public source maps in a production build (issue 8): SOURCEMAP=true builds them for debugging.
  build: { target: 'es2022', sourcemap: process.env.SOURCEMAP === 'true', chunkSizeWarningLimit: 600 },
  test: {
    name: 'web',
    environment: 'happy-dom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['../../vitest.setup.ts', './src/testing/setup.ts'],
  },
});

// First: zod without eval, before any schema is built (lib/zod-without-eval.ts).
import './lib/zod-without-eval.ts';
import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { loadStartLanguage } from './lib/i18n.ts';
import './index.css';
import { createRouter } from './app/router.tsx';

// Two tasks on a slow phone, not one long one (Lighthouse's Total Blocking Time): the
// modules' evaluation (React, the router) is this one; the next reads storage (the session for
// the first route's guard, the language; a browser's first read of it is synchronous and slow)
// and starts the router, which starts loading the first screen. The page renders once the
// language's text is here too (at once for English; Hindi's is a chunk of its own).
setTimeout(() => {
  const router = createRouter();
  // The page's mark (index.html) stays until the first screen's code is here, then the screen
  // replaces it: no grey placeholder between the two.
  const firstScreen = new Promise<void>((resolve) => {
    if (router.state.initialized) return resolve();
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
  // In a transition, React renders in slices that give the main thread back between them, instead
  // of one long task.
  void Promise.all([loadStartLanguage(), firstScreen]).then(() =>
    startTransition(() =>
      createRoot(document.getElementById('root')!).render(
        <StrictMode>
          <RouterProvider router={router} />
        </StrictMode>,
      ),
    ),
  );
}, 0);

// The service worker that keeps the app for offline use (vite.config.ts) registers after the first
// screen: once the page has loaded and the main thread is idle, so the first screen neither waits
// for it nor shares the network with its downloads (docs/architecture.md#offline).
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  const register = () => void navigator.serviceWorker.register('/sw.js').catch(() => {});
  window.addEventListener('load', () => setTimeout(() => (window.requestIdleCallback ?? setTimeout)(register), 3000), {
    once: true,
  });
}

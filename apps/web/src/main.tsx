import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { languageReady } from './lib/i18n.ts';
import './index.css';
import { createRouter } from './app/router.tsx';

// The router starts loading the first screen now; the page renders once the language's text is
// here too (at once for English; Hindi's is a chunk of its own, issue 9).
const router = createRouter();

// In a transition, React renders in slices that give the main thread back between them, instead
// of one long task on a slow phone (Lighthouse's Total Blocking Time).
void languageReady.then(() =>
  startTransition(() =>
    createRoot(document.getElementById('root')!).render(
      <StrictMode>
        <RouterProvider router={router} />
      </StrictMode>,
    ),
  ),
);

// The web bench's anchor (bench/web.ts): React and React Router at the app's versions, one route,
// built by the same Vite in the same run. createElement, not JSX, so it needs no plugin.
import { createElement, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { createBrowserRouter, RouterProvider } from 'react-router';

const router = createBrowserRouter([
  { path: '*', element: createElement('main', null, createElement('h1', null, 'Hello')) },
]);

createRoot(document.getElementById('root')!).render(
  createElement(StrictMode, null, createElement(RouterProvider, { router })),
);

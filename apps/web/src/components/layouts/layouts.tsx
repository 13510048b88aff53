import { Outlet } from 'react-router';
import { BottomNav } from './bottom-nav.tsx';

/** docs/product.md#screens: protected pages sit in a plain layout with an empty site header. */
export function ProtectedLayout() {
  return (
    <>
      <header className="site-header" aria-hidden="true" />
      <Outlet />
    </>
  );
}

/** The main tabs: the screen, then the bottom navigation. */
export function TabsLayout() {
  return (
    <div className="flex min-h-dvh flex-col">
      <div className="flex flex-1 flex-col">
        <Outlet />
      </div>
      <BottomNav />
    </div>
  );
}

import { createBrowserRouter, Navigate, type RouteObject } from 'react-router';
import { paths } from '../config/paths.ts';
import { Skeleton } from '../components/ui/skeleton.tsx';
import { ErrorPage } from './error-page.tsx';
import { redirectIfSignedIn, requireAuth } from './guards.ts';
import { lazyScreen } from './lazy.ts';
import { AppShell } from './app-shell.tsx';
import { Component as Landing } from './routes/parkit.tsx';

type Screen = Promise<{ Component: React.ComponentType }>;
/** Screens load on demand (docs/product.md#screens); each route module exports `Component`. */
const screen = (load: () => Screen): Pick<RouteObject, 'lazy'> => ({ lazy: lazyScreen(load) });
const layouts = () => import('../components/layouts/layouts.tsx');

export const routes: RouteObject[] = [
  {
    element: <AppShell />,
    errorElement: <ErrorPage />,
    hydrateFallbackElement: <Skeleton />,
    children: [
      { index: true, element: <Navigate to={paths.parkit} replace /> },
      // The landing page, the first screen most drivers see (/ and unknown paths lead there): in
      // the first chunk, so it paints with it, and without the server's data layer (React Query,
      // the session cache, toasts), so that chunk stays light.
      { path: paths.parkit, loader: redirectIfSignedIn, Component: Landing },
      // The sign-in screens, the next a new driver meets: outside the data layer too, which loads
      // with a sign-in's answer (features/auth/api/sign-in.ts; docs/benchmarks.md).
      { path: paths.login, loader: redirectIfSignedIn, ...screen(() => import('./routes/login.tsx')) },
      { path: paths.otp, ...screen(() => import('./routes/otp.tsx')) },
      { path: paths.register, ...screen(() => import('./routes/register.tsx')) },
      {
        // Every other screen: in the data layer (provider.tsx).
        ...screen(() => import('./provider.tsx')),
        children: [
          // Public routes.
          { path: paths.enforcement, ...screen(() => import('./routes/enforcement.tsx')) },
          {
            ...screen(() => layouts().then((m) => ({ Component: m.TabsLayout }))),
            children: [{ path: paths.homepage, ...screen(() => import('./routes/homepage.tsx')) }],
          },
          // Protected routes: a token or the guest flag.
          {
            loader: requireAuth,
            ...screen(() => layouts().then((m) => ({ Component: m.ProtectedLayout }))),
            children: [
              {
                ...screen(() => layouts().then((m) => ({ Component: m.TabsLayout }))),
                children: [
                  { path: paths.dashboard, ...screen(() => import('./routes/dashboard.tsx')) },
                  { path: paths.pastPark, ...screen(() => import('./routes/past-park.tsx')) },
                  { path: paths.mapPage, ...screen(() => import('./routes/map-page.tsx')) },
                  { path: paths.account, ...screen(() => import('./routes/account.tsx')) },
                  { path: paths.findParking, ...screen(() => import('./routes/find-parking.tsx')) },
                  { path: paths.findParkingMap, ...screen(() => import('./routes/find-parking-map.tsx')) },
                  { path: paths.profile, ...screen(() => import('./routes/profile.tsx')) },
                ],
              },
              { path: paths.selectVehicle, ...screen(() => import('./routes/select-vehicle.tsx')) },
              { path: paths.subscription, ...screen(() => import('./routes/subscription.tsx')) },
              { path: paths.subscriptionPayment, ...screen(() => import('./routes/subscription-payment.tsx')) },
              { path: paths.forgot, ...screen(() => import('./routes/forgot.tsx')) },
              { path: paths.confirmLocation, ...screen(() => import('./routes/confirm-location.tsx')) },
              { path: paths.closingReceipt, ...screen(() => import('./routes/closing-receipt.tsx')) },
              { path: paths.resetPassword, ...screen(() => import('./routes/reset-password.tsx')) },
              { path: paths.parkDetails, ...screen(() => import('./routes/park-details.tsx')) },
              { path: paths.parkingSessionDetail, ...screen(() => import('./routes/parking-session-detail.tsx')) },
              { path: paths.supportPage, ...screen(() => import('./routes/support-page.tsx')) },
              { path: paths.requestCall, ...screen(() => import('./routes/request-call.tsx')) },
              { path: paths.editProfile, ...screen(() => import('./routes/edit-profile.tsx')) },
              { path: paths.myVehicles, ...screen(() => import('./routes/my-vehicles.tsx')) },
              { path: paths.addVehicles, ...screen(() => import('./routes/add-vehicles.tsx')) },
              { path: paths.stripePage, ...screen(() => import('./routes/stripe-page.tsx')) },
              { path: paths.chatSupport, ...screen(() => import('./routes/chat-support.tsx')) },
              { path: paths.addMoney, ...screen(() => import('./routes/add-money.tsx')) },
              { path: paths.quickParkRegister, ...screen(() => import('./routes/quick-park-register.tsx')) },
              { path: paths.supportConsole, ...screen(() => import('./routes/support-console.tsx')) },
              { path: paths.operatorJoin, ...screen(() => import('./routes/operator-join.tsx')) },
              { path: paths.citations, ...screen(() => import('./routes/citations.tsx')) },
              { path: paths.permits, ...screen(() => import('./routes/permits.tsx')) },
            ],
          },
          // The operator's console: a desktop layout of its own (AppShell widens for it); staff only
          // (the shell sends anyone else to the home page).
          {
            path: paths.operator,
            loader: requireAuth,
            ...screen(() => import('./routes/operator.tsx')),
            children: [
              { path: ':operatorId', element: <Navigate to="dashboard" replace /> },
              { path: ':operatorId/dashboard', ...screen(() => import('./routes/operator-dashboard.tsx')) },
              { path: ':operatorId/reports', ...screen(() => import('./routes/operator-reports.tsx')) },
              { path: ':operatorId/people', ...screen(() => import('./routes/operator-people.tsx')) },
              { path: ':operatorId/prices', ...screen(() => import('./routes/operator-prices.tsx')) },
              { path: ':operatorId/audit', ...screen(() => import('./routes/operator-audit.tsx')) },
              { path: ':operatorId/keys', ...screen(() => import('./routes/operator-keys.tsx')) },
              { path: ':operatorId/zones', ...screen(() => import('./routes/operator-zones.tsx')) },
              { path: ':operatorId/zones/import', ...screen(() => import('./routes/operator-zone-import.tsx')) },
              { path: ':operatorId/zones/:zoneId', ...screen(() => import('./routes/operator-zone.tsx')) },
              { path: ':operatorId/sessions', ...screen(() => import('./routes/operator-sessions.tsx')) },
              { path: ':operatorId/settlement', ...screen(() => import('./routes/operator-settlement.tsx')) },
              { path: ':operatorId/citations', ...screen(() => import('./routes/operator-citations.tsx')) },
              { path: ':operatorId/permits', ...screen(() => import('./routes/operator-permits.tsx')) },
            ],
          },
        ],
      },
      // docs/product.md#screens: any unknown path redirects to /parkit.
      { path: '*', element: <Navigate to={paths.parkit} replace /> },
    ],
  },
];

export function createRouter() {
  return createBrowserRouter(routes);
}

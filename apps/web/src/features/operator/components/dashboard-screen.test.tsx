import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { OperatorDashboard, OperatorReport } from '@parkit/contract';
import { stubApi } from '../../../testing/render.tsx';
import { ConsoleShell } from './console-shell.tsx';
import { DashboardScreen } from './dashboard-screen.tsx';
import { ReportsScreen } from './reports-screen.tsx';

function renderAt(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: '/operator',
        element: <ConsoleShell />,
        children: [
          { path: ':operatorId/dashboard', element: <DashboardScreen /> },
          { path: ':operatorId/reports', element: <ReportsScreen /> },
        ],
      },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

type Handler = Parameters<typeof stubApi>[0][string];
const mine: Handler = () => [200, [{ OperatorId: 4, Name: 'Austin Parking', Role: 'analyst' }]];
const zone = {
  ZoneId: 11,
  ZoneNumber: '2401',
  Name: 'Congress Ave',
  Latitude: 30.2672,
  Longitude: -97.7431,
  Capacity: 4,
  Running: 3,
  Occupancy: 0.75,
};
const dashboard = (over: Partial<OperatorDashboard> = {}): OperatorDashboard => ({
  AsOf: '2026-11-27T18:00:00Z',
  Timezone: 'America/Chicago',
  RunningSessions: 3,
  Today: { Sessions: 5, ParkingCents: 1250, FeeCents: 175, RefundedCents: 100, DiscountCents: 0, RevenueCents: 1325 },
  Zones: [zone],
  Trend: Array.from({ length: 30 }, (_, i) => ({
    Date: `2026-11-${String(i + 1).padStart(2, '0')}`,
    Sessions: i,
    RevenueCents: i * 100,
  })),
  ...over,
});

afterEach(() => vi.unstubAllGlobals());

/** The stub's table, where any GET of the report (whatever its query) is answered by `report`. */
const withReport = (routes: Record<string, Handler>, report: Handler) =>
  new Proxy(routes, {
    get: (target, key: string) => (key.startsWith('GET /api/Operator/4/Report?') ? report : target[key]),
  });

describe('the operator dashboard', () => {
  it('shows sessions running now, today’s revenue and each zone’s occupancy', async () => {
    stubApi({ 'GET /api/Operator/Mine': mine, 'GET /api/Operator/4/Dashboard': () => [200, dashboard()] });
    renderAt('/operator/4/dashboard');
    expect((await screen.findByTestId('running-now')).textContent).toBe('3');
    expect(screen.getByTestId('revenue-today').textContent).toContain('13.25');
    expect(screen.getByTestId('sessions-today').textContent).toBe('5');
    const row = screen.getByTestId('zone-2401');
    expect(within(row).getByText('3 / 4')).toBeTruthy();
    expect(within(row).getByText('75%')).toBeTruthy();
  });

  it('says so when there is nothing yet, and offers Try again when it cannot load', async () => {
    stubApi({
      'GET /api/Operator/Mine': mine,
      'GET /api/Operator/4/Dashboard': () => [
        200,
        dashboard({ Zones: [], Trend: dashboard().Trend.map((d) => ({ ...d, Sessions: 0, RevenueCents: 0 })) }),
      ],
    });
    renderAt('/operator/4/dashboard');
    expect(await screen.findByText('This operator has no zones yet.')).toBeTruthy();
    expect(screen.getByText('No sessions in the last 30 days yet.')).toBeTruthy();
  });

  it('a failure to load is an error with Try again', async () => {
    stubApi({ 'GET /api/Operator/Mine': mine, 'GET /api/Operator/4/Dashboard': () => [500, { message: 'boom' }] });
    renderAt('/operator/4/dashboard');
    expect(await screen.findByText('The dashboard could not be loaded.')).toBeTruthy();
    expect(screen.getByRole('button', { name: /try again/i })).toBeTruthy();
  });
});

describe('reports', () => {
  const report: OperatorReport = {
    From: '2026-11-01',
    To: '2026-11-27',
    Timezone: 'America/Chicago',
    Days: 27,
    Capacity: 4,
    Sessions: 12,
    ParkingCents: 3000,
    FeeCents: 420,
    RefundedCents: 250,
    DiscountCents: 90,
    RevenueCents: 3170,
    AverageStayMinutes: 64.4,
    Turnover: 0.11,
    Occupancy: 0.05,
    ByHourOfDay: Array.from({ length: 24 }, (_, h) => ({ Hour: h, Occupancy: h / 100 })),
    ByDayOfWeek: Array.from({ length: 7 }, (_, i) => ({ IsoDay: i + 1, Occupancy: 0.1 })),
    ByDay: [],
    ByZone: [
      {
        ...zone,
        Sessions: 12,
        ParkingCents: 3000,
        FeeCents: 420,
        RefundedCents: 250,
        DiscountCents: 90,
        RevenueCents: 3170,
        Occupancy: 0.05,
      },
    ],
  };

  it('asks for the range and the zones ticked, and shows the money split', async () => {
    const calls = stubApi(
      withReport({ 'GET /api/Operator/Mine': mine, 'GET /api/Operator/4/Dashboard': () => [200, dashboard()] }, () => [
        200,
        report,
      ]),
    );
    renderAt('/operator/4/reports');
    expect((await screen.findByTestId('report-revenue')).textContent).toContain('31.70');
    expect(screen.getByTestId('report-refunds').textContent).toContain('2.50');
    expect(screen.getByTestId('report-stay').textContent).toBe('64 min');
    fireEvent.click(await screen.findByRole('checkbox', { name: '2401 Congress Ave' }));
    await vi.waitFor(() =>
      expect(calls.some((c) => c.path.startsWith('/api/Operator/4/Report') && c.path.includes('Zones=11'))).toBe(true),
    );
  });

  it('refuses a range that ends before it starts, without asking the server', async () => {
    const calls = stubApi(
      withReport({ 'GET /api/Operator/Mine': mine, 'GET /api/Operator/4/Dashboard': () => [200, dashboard()] }, () => [
        200,
        report,
      ]),
    );
    renderAt('/operator/4/reports');
    await screen.findByTestId('report-revenue');
    const before = calls.length;
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2026-12-31' } });
    expect((await screen.findByRole('alert')).textContent).toBe('The first day must not be after the last');
    expect(calls.slice(before).filter((c) => c.path.startsWith('/api/Operator/4/Report'))).toEqual([]);
  });
});

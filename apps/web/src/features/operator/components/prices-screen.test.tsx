import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { stubApi } from '../../../testing/render.tsx';
import { ConsoleShell } from './console-shell.tsx';
import { PricesScreen } from './prices-screen.tsx';

function renderPrices() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: '/operator',
        element: <ConsoleShell />,
        children: [{ path: ':operatorId/prices', element: <PricesScreen /> }],
      },
    ],
    { initialEntries: ['/operator/4/prices'] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const zones = { Zones: [], Total: 0 };
const preview = (amount: number) => ({
  StartsAt: '2026-11-28T23:30:00.000Z',
  EndsAt: '2026-11-29T01:30:00.000Z',
  DurationMinutes: 120,
  PaidMinutes: 120,
  Amount: amount,
  Refusal: null,
  Spans: [
    {
      Name: 'Paid hours',
      StartsAt: '2026-11-28T23:30:00.000Z',
      EndsAt: '2026-11-29T01:30:00.000Z',
      Minutes: 120,
      Amount: amount,
    },
  ],
});

afterEach(() => vi.unstubAllGlobals());

describe('the Prices screen', () => {
  it('an analyst sees the policies and events but no editor', async () => {
    stubApi({
      'GET /api/Operator/Mine': () => [200, [{ OperatorId: 4, Name: 'Austin Parking', Role: 'analyst' }]],
      'GET /api/Operator/4/Policies': () => [
        200,
        [{ PolicyId: 7, Name: 'Downtown', LatestVersion: 2, CurrentVersion: 1, ZoneCount: 3 }],
      ],
      'GET /api/Operator/4/PriceEvents': () => [200, []],
    });
    renderPrices();
    expect(await screen.findByRole('button', { name: /Downtown/ })).toBeTruthy();
    expect(screen.getByText(/version 1 in force, 2 latest/)).toBeTruthy();
    expect(screen.getByText(/3 zones/)).toBeTruthy();
    expect(await screen.findByText('No event is coming.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'New policy' })).toBeNull();
  });

  it('a manager drafts a progressive policy, sees its preview from the server, and publishes it', async () => {
    const calls = stubApi({
      'GET /api/Operator/Mine': () => [200, [{ OperatorId: 4, Name: 'Austin Parking', Role: 'manager' }]],
      'GET /api/Operator/4/Policies': () => [200, []],
      'GET /api/Operator/4/PriceEvents': () => [200, []],
      'GET /api/Operator/4/Zones?limit=100&retired=exclude': () => [200, zones],
      'GET /api/Operator/4/PermitTypes': () => [200, []],
      'POST /api/Operator/4/Policies/Preview': (body) => {
        const rate = (body as { Body: { Spans: { Rate: { CentsPerHour: number }[] }[] } }).Body.Spans[0]!.Rate;
        return [200, preview(rate.length > 1 ? 5 : 4)];
      },
      'POST /api/Operator/4/Policies': () => [
        201,
        {
          PolicyId: 9,
          Name: 'Stadium',
          Version: 1,
          EffectiveFrom: '2026-11-27T00:00:00Z',
          CreatedAt: '2026-11-27T00:00:00Z',
          Body: {},
        },
      ],
      'GET /api/Operator/4/Policies/9': () => [
        200,
        { PolicyId: 9, Name: 'Stadium', CurrentVersion: 1, Versions: [], ZoneIds: [] },
      ],
    });
    renderPrices();
    expect(await screen.findByText('No price policy yet.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'New policy' }));
    expect(await screen.findByTestId('preview-amount', {}, { timeout: 3000 })).toBeTruthy();
    expect(screen.getByTestId('preview-amount').textContent).toContain('4.00');

    fireEvent.click(screen.getByRole('checkbox', { name: /Progressive/ }));
    fireEvent.change(screen.getByLabelText('Each further hour, per hour'), { target: { value: '3' } });
    await waitFor(() => expect(screen.getByTestId('preview-amount').textContent).toContain('5.00'), { timeout: 3000 });
    const sent = calls.filter((c) => c.path.endsWith('/Preview')).at(-1)!.body as {
      Body: { Spans: { Rate: unknown }[] };
    };
    expect(sent.Body.Spans[0]!.Rate).toEqual([
      { FromMinute: 0, CentsPerHour: 200 },
      { FromMinute: 60, CentsPerHour: 300 },
    ]);

    fireEvent.click(screen.getByRole('button', { name: 'Create and publish' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Policy name'), { target: { value: 'Stadium' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create and publish' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.path === '/api/Operator/4/Policies')).toBe(true),
    );
    const created = calls.find((c) => c.method === 'POST' && c.path === '/api/Operator/4/Policies')!.body as {
      Name: string;
      Body: { MaxStayMinutes: number };
    };
    expect(created).toMatchObject({ Name: 'Stadium', Body: { MaxStayMinutes: 120 } });
  });

  it('a manager lets one permit type park free and gives disabled badges their own rate', async () => {
    const type = (Id: number, Name: string, Retired: boolean) => ({
      Id,
      OperatorId: 4,
      Kind: 'resident',
      Name,
      ZoneIds: [],
      ValidMonths: 12,
      PriceCents: 0,
      ProofRequired: false,
      MaxPlates: 2,
      VisitorDaysPerMonth: 0,
      Retired,
    });
    const calls = stubApi({
      'GET /api/Operator/Mine': () => [200, [{ OperatorId: 4, Name: 'Austin Parking', Role: 'manager' }]],
      'GET /api/Operator/4/Policies': () => [200, []],
      'GET /api/Operator/4/PriceEvents': () => [200, []],
      'GET /api/Operator/4/Zones?limit=100&retired=exclude': () => [200, zones],
      'GET /api/Operator/4/PermitTypes': () => [200, [type(5, 'Resident Zone A', false), type(6, 'Old scheme', true)]],
      'POST /api/Operator/4/Policies/Preview': () => [200, preview(4)],
      'POST /api/Operator/4/Policies': () => [
        201,
        {
          PolicyId: 9,
          Name: 'Residents',
          Version: 1,
          EffectiveFrom: '2026-11-27T00:00:00Z',
          CreatedAt: '2026-11-27T00:00:00Z',
          Body: {},
        },
      ],
      'GET /api/Operator/4/Policies/9': () => [
        200,
        { PolicyId: 9, Name: 'Residents', CurrentVersion: 1, Versions: [], ZoneIds: [] },
      ],
    });
    renderPrices();
    fireEvent.click(await screen.findByRole('button', { name: 'New policy' }));
    const resident = await screen.findByRole('combobox', { name: 'Resident Zone A' });
    // A retired type no rule names is not offered.
    expect(screen.queryByRole('combobox', { name: 'Old scheme' })).toBeNull();
    fireEvent.change(resident, { target: { value: 'exempt' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Disabled badge' }), { target: { value: 'own' } });
    fireEvent.change(screen.getByLabelText('Disabled badge, per hour'), { target: { value: '0.5' } });
    fireEvent.change(screen.getByLabelText('Policy name'), { target: { value: 'Residents' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create and publish' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'POST' && c.path === '/api/Operator/4/Policies')).toBe(true),
    );
    const created = calls.find((c) => c.method === 'POST' && c.path === '/api/Operator/4/Policies')!.body as {
      Body: { Spans: { UserClasses: unknown[] }[] };
    };
    expect(created.Body.Spans[0]!.UserClasses).toEqual(
      expect.arrayContaining([
        { PermitTypeId: 5, Exempt: true },
        { UserClass: 'disabled', Exempt: false, Rate: [{ FromMinute: 0, CentsPerHour: 50 }] },
      ]),
    );
    expect(created.Body.Spans[0]!.UserClasses).toHaveLength(2);
  });
});

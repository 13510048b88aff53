import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { stubApi } from '../../../testing/render.tsx';
import { ConsoleShell } from './console-shell.tsx';
import { PeopleScreen } from './people-screen.tsx';

function Where() {
  return <output data-testid="location">{useLocation().pathname}</output>;
}

function renderConsole(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: '/operator',
        element: <ConsoleShell />,
        children: [
          { path: ':operatorId/dashboard', element: <Where /> },
          { path: ':operatorId/people', element: <PeopleScreen /> },
        ],
      },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const staff = [
  { MemberId: 3, UserName: 'riley', Name: 'Riley Tester', Role: 'manager', Since: '2026-11-01T10:00:00Z' },
];

afterEach(() => vi.unstubAllGlobals());

describe('the operator console', () => {
  it('sends a driver (403) to the home page', async () => {
    stubApi({ 'GET /api/Operator/Mine': () => [403, { message: 'This page is for an operator’s staff' }] });
    renderConsole('/operator');
    expect((await screen.findByTestId('location')).textContent).toBe('/homepage');
  });

  it('opens the first operator on its dashboard, and offers a switcher when the person works for several', async () => {
    stubApi({
      'GET /api/Operator/Mine': () => [
        200,
        [
          { OperatorId: 4, Name: 'Austin Parking', Role: 'owner' },
          { OperatorId: 9, Name: 'Campus Parking', Role: 'analyst' },
        ],
      ],
      'GET /api/Operator/4/Staff': () => [200, staff],
      'GET /api/Operator/4/Invites': () => [200, []],
    });
    renderConsole('/operator');
    expect((await screen.findByTestId('location')).textContent).toBe('/operator/4/dashboard');
    expect((screen.getByRole('combobox', { name: 'Operator' }) as HTMLSelectElement).value).toBe('4');
    expect(screen.getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/operator/4/dashboard');
    expect(screen.getByRole('link', { name: 'Reports' }).getAttribute('href')).toBe('/operator/4/reports');
  });

  it('an owner manages people: a role per person and the invitation form', async () => {
    stubApi({
      'GET /api/Operator/Mine': () => [200, [{ OperatorId: 4, Name: 'Austin Parking', Role: 'owner' }]],
      'GET /api/Operator/4/Staff': () => [200, staff],
      'GET /api/Operator/4/Invites': () => [200, []],
    });
    renderConsole('/operator/4/people');
    expect(await screen.findByRole('heading', { name: 'People', level: 1 })).toBeTruthy();
    // The owner manages people: a role per person and the invitation form.
    expect(await screen.findByRole('combobox', { name: 'Role of riley' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Send invitation' })).toBeTruthy();
  });

  it('an analyst reads the team and is offered no change', async () => {
    const calls = stubApi({
      'GET /api/Operator/Mine': () => [200, [{ OperatorId: 9, Name: 'Campus Parking', Role: 'analyst' }]],
      'GET /api/Operator/9/Staff': () => [200, staff],
    });
    renderConsole('/operator/9/people');
    expect(await screen.findByText('Riley Tester')).toBeTruthy();
    expect(screen.getByText('Your role: Analyst')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Send invitation' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove' })).toBeNull();
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(calls.map((c) => c.path)).not.toContain('/api/Operator/9/Invites');
  });

  it('an operator the person does not work for is not found', async () => {
    stubApi({ 'GET /api/Operator/Mine': () => [200, [{ OperatorId: 9, Name: 'Campus Parking', Role: 'owner' }]] });
    renderConsole('/operator/4/people');
    expect(await screen.findByText('Operator not found')).toBeTruthy();
  });
});

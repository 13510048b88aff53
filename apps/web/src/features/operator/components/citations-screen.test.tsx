import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { Citation, OperatorRole, Violation } from '@parkit/contract';
import { stubApi } from '../../../testing/render.tsx';
import { ConsoleShell } from './console-shell.tsx';
import { CitationsConsoleScreen } from './citations-screen.tsx';

function renderCitations() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: '/operator',
        element: <ConsoleShell />,
        children: [{ path: ':operatorId/citations', element: <CitationsConsoleScreen /> }],
      },
    ],
    { initialEntries: ['/operator/7/citations'] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const violation: Violation = {
  ViolationId: 1,
  Code: 'NP',
  Description: 'Parked without paying',
  Fine: 25,
  DueDays: 14,
  LateFee: 10,
  Retired: false,
};
const contested: Citation = {
  CitationId: 12,
  ZoneId: 3,
  ZoneNumber: '7701',
  PlateNumber: 'ABC123',
  PlateState: 'TX',
  ViolationCode: 'NP',
  ViolationDescription: 'Parked without paying',
  Fine: 25,
  LateFee: 0,
  AmountDue: 0,
  AmountPaid: 25,
  Refunded: 0,
  Officer: 'officer1',
  IssuedAt: '2026-11-20T10:00:00Z',
  Location: '',
  Status: 'contested',
  DueAt: '2026-12-04T10:00:00Z',
  Files: [],
  Contest: {
    Reason: 'I had paid',
    CreatedAt: '2026-11-21T10:00:00Z',
    Decision: null,
    DecisionNote: '',
    DecidedBy: null,
    DecidedAt: null,
  },
};
const mine = (role: OperatorRole) => (): [number, unknown] => [200, [{ OperatorId: 7, Name: 'City', Role: role }]];

afterEach(() => vi.unstubAllGlobals());

describe('the console’s Citations page', () => {
  it('lists violations and a waiting contest; a manager cancels it with a refund', async () => {
    const calls = stubApi({
      'GET /api/Operator/Mine': mine('manager'),
      'GET /api/Operator/7/Violations': () => [200, [violation]],
      'GET /api/Operator/7/Citations?status=contested': () => [200, [contested]],
      'POST /api/Operator/7/Citations/12/Decide': () => [200, { ...contested, Status: 'cancelled' }],
    });
    renderCitations();
    expect(await screen.findByText(/Parked without paying/)).toBeTruthy();
    expect(await screen.findByText('Contest: I had paid')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel and refund' }));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')?.body).toEqual({ Decision: 'cancelled', Note: '' }),
    );
  });

  it('an analyst reads but has no form and no decision', async () => {
    stubApi({
      'GET /api/Operator/Mine': mine('analyst'),
      'GET /api/Operator/7/Violations': () => [200, []],
      'GET /api/Operator/7/Citations?status=contested': () => [200, [contested]],
    });
    renderCitations();
    expect(await screen.findByText('No violation yet.')).toBeTruthy();
    expect(await screen.findByText('Contest: I had paid')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Cancel and refund' })).toBeNull();
    expect(screen.queryByRole('form', { name: 'Add a violation' })).toBeNull();
  });
});

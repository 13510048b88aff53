import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { OPERATOR_SESSION_MESSAGES, type OperatorRole, type OperatorSessionDetail } from '@parkit/contract';
import { stubApi } from '../../../testing/render.tsx';
import { ConsoleShell } from './console-shell.tsx';
import { SessionsScreen } from './sessions-screen.tsx';

function renderSessions(role: OperatorRole = 'manager') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: '/operator',
        element: <ConsoleShell />,
        children: [{ path: ':operatorId/sessions', element: <SessionsScreen /> }],
      },
    ],
    { initialEntries: ['/operator/7/sessions'] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return role;
}

const session: OperatorSessionDetail = {
  SessionId: 41,
  ZoneId: 3,
  ZoneNumber: '7701',
  PlateNumber: '••••34',
  PlateState: 'TX',
  StartedAt: '2026-11-20T10:00:00Z',
  EndsAt: '2026-11-20T11:00:00Z',
  EndedAt: '2026-11-20T11:00:00Z',
  Status: 'ended',
  PaidVia: 'Wallet',
  ParkingAmount: 2.5,
  FeeAmount: 0,
  RefundedAmount: 0,
  AmountPaid: 2.5,
  Refundable: 2.5,
  Refunds: [],
};
const mine = (role: OperatorRole) => (): [number, unknown] => [200, [{ OperatorId: 7, Name: 'City', Role: role }]];
const zones = (): [number, unknown] => [200, { Zones: [], Total: 0 }];

afterEach(() => vi.unstubAllGlobals());

describe('the Sessions screen', () => {
  it('lists sessions, shows one, and refunds an amount with a reason, once', async () => {
    const refunds: unknown[] = [];
    const calls = stubApi({
      'GET /api/Operator/Mine': mine('manager'),
      'GET /api/Operator/7/Zones?limit=200': zones,
      'GET /api/Operator/7/Sessions?limit=25': () => [200, { Sessions: [session], Next: null }],
      'GET /api/Operator/7/Sessions/41': () => [200, session],
      'POST /api/Operator/7/Sessions/41/Refund': (body) => {
        refunds.push(body);
        return [
          201,
          {
            RefundId: 1,
            SessionId: 41,
            Amount: 1.25,
            RefundedAmount: 1.25,
            Refundable: 1.25,
            PaidVia: 'Wallet',
            message: 'Refunded',
          },
        ];
      },
    });
    renderSessions();
    const list = await screen.findByTestId('operator-sessions');
    await userEvent.click(within(list).getByRole('button', { name: /Session 41/ }));
    expect((await screen.findByTestId('operator-session')).textContent).toContain('••••34 TX');
    await userEvent.click(screen.getByRole('button', { name: 'Refund' }));
    const dialog = await screen.findByRole('dialog');
    // Nothing typed: the contract's messages, and nothing sent.
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await within(dialog).findByText(OPERATOR_SESSION_MESSAGES.reasonRequired)).toBeTruthy();
    expect(refunds).toEqual([]);
    await userEvent.type(within(dialog).getByLabelText(/Amount/), '1.25');
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'Meter was broken');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refund' }));
    await vi.waitFor(() => expect(refunds).toEqual([{ Amount: '1.25', Reason: 'Meter was broken' }]));
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('says when no session matches, and when the list could not be loaded', async () => {
    stubApi({
      'GET /api/Operator/Mine': mine('analyst'),
      'GET /api/Operator/7/Zones?limit=200': zones,
      'GET /api/Operator/7/Sessions?limit=25': () => [200, { Sessions: [], Next: null }],
      'GET /api/Operator/7/Sessions?limit=25&plate=NOPE': () => [500, { message: 'Internal Server Error' }],
    });
    renderSessions('analyst');
    expect(await screen.findByText('No session matches.')).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Plate'), 'NOPE');
    await userEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('Sessions could not be loaded.')).toBeTruthy();
  });

  it('offers no refund to an analyst', async () => {
    stubApi({
      'GET /api/Operator/Mine': mine('analyst'),
      'GET /api/Operator/7/Zones?limit=200': zones,
      'GET /api/Operator/7/Sessions?limit=25': () => [200, { Sessions: [session], Next: null }],
      'GET /api/Operator/7/Sessions/41': () => [200, session],
    });
    renderSessions('analyst');
    await userEvent.click(
      within(await screen.findByTestId('operator-sessions')).getByRole('button', { name: /Session 41/ }),
    );
    expect(await screen.findByTestId('operator-session')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Refund' })).toBeNull();
  });
});

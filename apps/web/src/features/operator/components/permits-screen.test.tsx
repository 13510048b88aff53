import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import type { OperatorRole, OperatorZone, Permit, PermitType } from '@parkit/contract';
import { stubApi } from '../../../testing/render.tsx';
import { ConsoleShell } from './console-shell.tsx';
import { PermitsConsoleScreen } from './permits-screen.tsx';

function renderPermits() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: '/operator',
        element: <ConsoleShell />,
        children: [{ path: ':operatorId/permits', element: <PermitsConsoleScreen /> }],
      },
    ],
    { initialEntries: ['/operator/7/permits'] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
}

const zone = { ZoneId: 3, ZoneNumber: '7701', Name: 'Main St' } as OperatorZone;
const resident: PermitType = {
  Id: 5,
  OperatorId: 7,
  Kind: 'resident',
  Name: 'Old Town residents',
  ZoneIds: [3],
  ValidMonths: 12,
  PriceCents: 4500,
  ProofRequired: true,
  MaxPlates: 2,
  VisitorDaysPerMonth: 4,
  Retired: false,
};
const pending: Permit = {
  Id: 21,
  OperatorId: 7,
  TypeId: 5,
  TypeName: 'Old Town residents',
  Kind: 'resident',
  MemberId: 40,
  Plates: ['ABC123'],
  ZoneIds: [3],
  Status: 'pending',
  RefusalReason: null,
  ProofAttachmentId: '0b9d8f0e-3f54-4a5e-9d3a-1c2b3d4e5f60',
  PriceCents: 4500,
  ValidFrom: null,
  ValidUntil: null,
  VisitorDaysPerMonth: 4,
  CreatedAt: '2026-11-20T10:00:00Z',
};
const mine = (role: OperatorRole) => (): [number, unknown] => [200, [{ OperatorId: 7, Name: 'City', Role: role }]];
const reading = (role: OperatorRole) => ({
  'GET /api/Operator/Mine': mine(role),
  'GET /api/Operator/7/PermitTypes': (): [number, unknown] => [200, [resident]],
  'GET /api/Operator/7/Zones?limit=200': (): [number, unknown] => [200, { Zones: [zone], Total: 1 }],
  'GET /api/Operator/7/Permits?status=pending': (): [number, unknown] => [200, [pending]],
});

afterEach(() => vi.unstubAllGlobals());

describe('the console’s Permits page', () => {
  it('a manager creates a permit type; the server’s field error shows under its field', async () => {
    let tries = 0;
    const calls = stubApi({
      ...reading('manager'),
      'POST /api/Operator/7/PermitTypes': (body) =>
        ++tries === 1
          ? [400, { Message: 'Too large', errors: [{ field: 'PriceCents', message: 'Too large' }] }]
          : [201, { ...resident, ...(body as object), Id: 6 }],
    });
    renderPermits();
    const table = await screen.findByTestId('permit-types');
    expect(within(table).getByText('Old Town residents')).toBeTruthy();
    expect(within(table).getByText('7701')).toBeTruthy();
    const form = screen.getByRole('form', { name: 'Create a permit type' });
    await userEvent.selectOptions(within(form).getByLabelText('Kind'), 'business');
    await userEvent.type(within(form).getByLabelText('Name'), 'Shops');
    await userEvent.clear(within(form).getByLabelText('Price'));
    await userEvent.type(within(form).getByLabelText('Price'), '30.50');
    await userEvent.click(within(form).getByLabelText('Proof required'));
    await userEvent.click(within(form).getByRole('button', { name: 'Create a permit type' }));
    expect(await within(form).findByText('Choose zones of this operator')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.click(within(form).getByLabelText('7701 · Main St'));
    await userEvent.click(within(form).getByRole('button', { name: 'Create a permit type' }));
    expect(await within(form).findByText('Too large')).toBeTruthy();
    expect(within(form).getByLabelText('Price').getAttribute('aria-invalid')).toBe('true');
    await userEvent.click(within(form).getByRole('button', { name: 'Create a permit type' }));
    await vi.waitFor(() => expect(calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(calls.filter((c) => c.method === 'POST')[1]?.body).toEqual({
      Kind: 'business',
      Name: 'Shops',
      ZoneIds: [3],
      ValidMonths: 12,
      PriceCents: 3050,
      ProofRequired: false,
      MaxPlates: 1,
      VisitorDaysPerMonth: 0,
    });
  });

  it('a manager approves one application and refuses another with a reason', async () => {
    const other: Permit = { ...pending, Id: 22, MemberId: 41, Plates: ['XYZ9'] };
    const calls = stubApi({
      ...reading('manager'),
      'GET /api/Operator/7/Permits?status=pending': () => [200, [pending, other]],
      'POST /api/Operator/7/Permits/21/Approve': () => [200, { ...pending, Status: 'approved' }],
      'POST /api/Operator/7/Permits/22/Refuse': () => [200, { ...other, Status: 'refused' }],
    });
    renderPermits();
    const list = await screen.findByTestId('permit-applications');
    const [first, second] = within(list).getAllByRole('listitem');
    expect(within(first!).getByText(/Driver 40/)).toBeTruthy();
    expect(within(first!).getByRole('button', { name: 'Proof of application 21' })).toBeTruthy();
    await userEvent.click(within(first!).getByRole('button', { name: 'Approve' }));
    await vi.waitFor(() => expect(calls.some((c) => c.path === '/api/Operator/7/Permits/21/Approve')).toBe(true));

    await userEvent.click(within(second!).getByRole('button', { name: 'Refuse' }));
    const dialog = await screen.findByRole('dialog', { name: 'Refuse application 22' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refuse' }));
    expect(await within(dialog).findByText('Say why the application is refused')).toBeTruthy();
    await userEvent.type(within(dialog).getByLabelText('Reason'), 'The proof is not of this address');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Refuse' }));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.path === '/api/Operator/7/Permits/22/Refuse')?.body).toEqual({
        Reason: 'The proof is not of this address',
      }),
    );
  });

  it('a manager edits a type: the form holds its values and sends them with a PUT', async () => {
    const calls = stubApi({
      ...reading('manager'),
      'PUT /api/Operator/7/PermitTypes/5': (body) => [200, { ...resident, ...(body as object) }],
    });
    renderPermits();
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Old Town residents' }));
    const form = screen.getByRole('form', { name: 'Edit Old Town residents' });
    expect((within(form).getByLabelText('Price') as HTMLInputElement).value).toBe('45.00');
    await userEvent.clear(within(form).getByLabelText('Visitor days a month'));
    await userEvent.type(within(form).getByLabelText('Visitor days a month'), '6');
    await userEvent.click(within(form).getByRole('button', { name: 'Save changes' }));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.method === 'PUT')?.body).toEqual({
        Kind: 'resident',
        Name: 'Old Town residents',
        ZoneIds: [3],
        ValidMonths: 12,
        PriceCents: 4500,
        ProofRequired: true,
        MaxPlates: 2,
        VisitorDaysPerMonth: 6,
      }),
    );
    expect(await screen.findByRole('form', { name: 'Create a permit type' })).toBeTruthy();
  });

  it('a manager retires a type only after confirming', async () => {
    const calls = stubApi({
      ...reading('manager'),
      'POST /api/Operator/7/PermitTypes/5/Retire': () => [200, { ...resident, Retired: true }],
    });
    renderPermits();
    await userEvent.click(await screen.findByRole('button', { name: 'Retire Old Town residents' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retire Old Town residents?' });
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Retire' }));
    await vi.waitFor(() => expect(calls.some((c) => c.path === '/api/Operator/7/PermitTypes/5/Retire')).toBe(true));
  });

  it('an analyst reads types and applications but has no button to change them', async () => {
    stubApi(reading('analyst'));
    renderPermits();
    expect(await screen.findByTestId('permit-types')).toBeTruthy();
    expect(await screen.findByTestId('permit-applications')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Permits' })).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Create a permit type' })).toBeNull();
    for (const name of ['Approve', 'Refuse', 'Retire Old Town residents', 'Edit Old Town residents'])
      expect(screen.queryByRole('button', { name })).toBeNull();
    // The proof stays readable.
    expect(screen.getByRole('button', { name: 'Proof of application 21' })).toBeTruthy();
  });

  it('an officer has no Permits item in the console’s menu, and the page asks nothing of the server', async () => {
    const calls = stubApi({ 'GET /api/Operator/Mine': mine('officer') });
    renderPermits();
    expect(await screen.findByRole('link', { name: 'Citations' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Permits' })).toBeNull();
    expect(screen.getByText('Your role does not show permits.')).toBeTruthy();
    expect(calls.map((c) => c.path)).toEqual(['/api/Operator/Mine']);
  });
});

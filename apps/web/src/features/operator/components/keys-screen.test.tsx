import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { stubApi } from '../../../testing/render.tsx';
import { ConsoleShell } from './console-shell.tsx';
import { KeysScreen } from './keys-screen.tsx';

function renderKeys(url = '/operator/4/keys') {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: '/operator',
        element: <ConsoleShell />,
        children: [{ path: ':operatorId/keys', element: <KeysScreen /> }],
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

const mine = (Role: string) => (): [number, unknown] => [200, [{ OperatorId: 4, Name: 'Austin Parking', Role }]];
const live = {
  Prefix: 'pk_AbCdEfGh',
  Purpose: 'cds',
  Label: 'City of Austin',
  CreatedAt: '2026-11-01T10:00:00Z',
  LastUsedAt: null,
  RevokedAt: null,
};
const revoked = {
  Prefix: 'pk_Zyxwvuts',
  Purpose: 'enforcement',
  Label: '',
  CreatedAt: '2026-10-01T10:00:00Z',
  LastUsedAt: '2026-10-02T10:00:00Z',
  RevokedAt: '2026-10-03T10:00:00Z',
};

afterEach(() => vi.unstubAllGlobals());

describe('API keys in the console', () => {
  it('an owner sees the keys by prefix, makes one and sees its secret once', async () => {
    let list = [live, revoked];
    const calls = stubApi({
      'GET /api/Operator/Mine': mine('owner'),
      'GET /api/Operator/4/Keys': () => [200, list],
      'POST /api/Operator/4/Keys': (body) => {
        const made = { ...live, Prefix: 'pk_NewKey12', Label: 'Night shift', Purpose: 'enforcement' };
        list = [...list, made];
        expect(body).toEqual({ Purpose: 'enforcement', Label: 'Night shift' });
        return [201, { ...made, Key: 'pk_NewKey12' + 's'.repeat(43) }];
      },
    });
    renderKeys();
    expect(await screen.findByRole('heading', { name: 'API keys', level: 1 })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'API keys' }).getAttribute('href')).toBe('/operator/4/keys');
    expect(await screen.findByText('pk_AbCdEfGh…')).toBeTruthy();
    expect(screen.getByText('City of Austin')).toBeTruthy();
    expect(screen.getByText(/never used/)).toBeTruthy();
    // The revoked key says so and offers no Revoke; the live one does.
    expect(screen.getByText(/^Revoked /)).toBeTruthy();
    expect(screen.getAllByRole('button', { name: 'Revoke' })).toHaveLength(1);

    const user = userEvent.setup();
    await user.type(screen.getByRole('textbox', { name: 'Label' }), 'Night shift');
    await user.click(screen.getByRole('button', { name: 'Make key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your new key' });
    expect((within(dialog).getByRole('textbox') as HTMLTextAreaElement).value).toBe('pk_NewKey12' + 's'.repeat(43));
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('pk_NewKey12…')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(1);
  });

  it('revoking asks first, then revokes the key', async () => {
    const calls = stubApi({
      'GET /api/Operator/Mine': mine('owner'),
      'GET /api/Operator/4/Keys': () => [200, [live]],
      'POST /api/Operator/4/Keys/pk_AbCdEfGh/Revoke': () => [200, { message: 'OK' }],
    });
    renderKeys();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Revoke' }));
    const dialog = await screen.findByRole('dialog', { name: 'Revoke pk_AbCdEfGh…?' });
    expect(calls.some((c) => c.path.endsWith('/Revoke'))).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/Operator/4/Keys/pk_AbCdEfGh/Revoke')).toBe(true));
  });

  it('a manager gets no link and no keys: only an owner manages them', async () => {
    const calls = stubApi({ 'GET /api/Operator/Mine': mine('manager') });
    renderKeys();
    expect(await screen.findByText('Only an owner manages API keys.')).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'API keys' })).toBeNull();
    expect(calls.map((c) => c.path)).not.toContain('/api/Operator/4/Keys');
  });

  it('a list that cannot be loaded says so', async () => {
    stubApi({ 'GET /api/Operator/Mine': mine('owner'), 'GET /api/Operator/4/Keys': () => [500, { message: 'x' }] });
    renderKeys();
    expect(await screen.findByText('API keys could not be loaded.')).toBeTruthy();
  });
});

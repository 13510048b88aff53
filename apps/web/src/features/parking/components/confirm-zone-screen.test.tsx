import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { makeZone } from '../testing/zone-fixture.ts';
import { ConfirmZoneScreen } from './confirm-zone-screen.tsx';
import { parseZoneId } from '../hooks/use-id-param.ts';

function renderAt(url: string, answer?: { status: number; body: unknown }) {
  const fetch = vi.fn(() =>
    Promise.resolve(new Response(JSON.stringify(answer?.body ?? null), { status: answer?.status ?? 200 })),
  );
  vi.stubGlobal('fetch', fetch);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[url]}>
        <ConfirmZoneScreen />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return fetch;
}

afterEach(() => vi.unstubAllGlobals());

describe('ConfirmZoneScreen', () => {
  it('accepts only a positive whole zone id', () => {
    expect(parseZoneId('12')).toBe(12);
    for (const bad of [null, '', '0', '-3', '1.5', 'abc', '12abc', '9999999999']) expect(parseZoneId(bad)).toBeNull();
  });

  it('summarises the zone; Continue leads a guest to Quick Park', async () => {
    const fetch = renderAt('/confirmlocation?zone=7', { status: 200, body: makeZone({ DistanceMeters: null }) });
    expect(await screen.findByRole('heading', { name: 'Congress Ave 100 block (east side)' })).toBeTruthy();
    expect(fetch).toHaveBeenCalledWith('/api/Parking/Zones/7', expect.anything());
    for (const shown of ['1001', 'Austin, TX 78701', '$2.50/hr', '2 h max', 'Paid until 18:00', 'Mon–Sat, 08:00–18:00'])
      expect(screen.getByText(shown)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/QuickParkRegister?number=1001');
    expect(screen.getByRole('link', { name: 'Back' }).getAttribute('href')).toBe('/findparking');
  });

  it('leads a member to Select Vehicle when Auto Start is off', async () => {
    localStorage.setItem('access_token', 'token');
    const fetch = vi.fn((url: string) =>
      Promise.resolve(
        new Response(
          JSON.stringify(
            url.endsWith('AutoStartQuote')
              ? { Enabled: false, Reason: 'Off', Quote: null, VehicleId: null, PlateNumber: null }
              : makeZone(),
          ),
          { status: 200 },
        ),
      ),
    );
    vi.stubGlobal('fetch', fetch);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <MemoryRouter initialEntries={['/confirmlocation?zone=7']}>
          <ConfirmZoneScreen />
        </MemoryRouter>
      </QueryClientProvider>,
    );
    await screen.findByRole('heading', { name: 'Congress Ave 100 block (east side)' });
    await vi.waitFor(() =>
      expect(fetch).toHaveBeenCalledWith('/api/Parking/AutoStartQuote', expect.objectContaining({ method: 'POST' })),
    );
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/SelectVehicle?zone=7');
    localStorage.clear();
  });

  it('asks to choose a zone when the address has none', () => {
    const fetch = renderAt('/confirmlocation');
    expect(screen.getByText('No zone chosen')).toBeTruthy();
    expect(fetch).not.toHaveBeenCalled();
  });

  it('says so when the zone does not exist', async () => {
    renderAt('/confirmlocation?zone=999999', { status: 404, body: { message: 'Not found' } });
    expect(await screen.findByText('This zone was not found')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Find Parking' }).getAttribute('href')).toBe('/findparking');
  });
});

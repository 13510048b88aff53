import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { Operator, Zone } from '@parkit/contract';
import { makeZone } from '../testing/zone-fixture.ts';
import { FindParkingScreen } from './find-parking-screen.tsx';

const operator: Operator = {
  ClientId: 1,
  Name: 'Austin Mobility',
  City: 'Austin',
  State: 'TX',
  Latitude: 30.2672,
  Longitude: -97.7431,
  Timezone: 'America/Chicago',
};
const near = makeZone({ ZoneId: 1, ZoneNumber: '1003', DistanceMeters: 40 });
const far = makeZone({
  ZoneId: 2,
  ZoneNumber: '1207',
  Name: 'W 6th St 400 block',
  DistanceMeters: 820,
  PaymentRequiredNow: false,
  PaidUntilNow: null,
});

/** Answers the app's API calls like the server would; records the URLs asked for. */
function stubApi(search: Zone[] = [far]) {
  const urls: string[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((input: RequestInfo | URL) => {
      const url = String(input);
      urls.push(url);
      const body = url.startsWith('/api/Parking/Operator')
        ? operator
        : url.startsWith('/api/Parking/Zones/Search')
          ? search
          : [near, far];
      return Promise.resolve(
        new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } }),
      );
    }),
  );
  return urls;
}

function stubGeolocation(answer: 'granted' | 'denied') {
  const geolocation = {
    getCurrentPosition: (ok: PositionCallback, fail: PositionErrorCallback) => {
      if (answer === 'granted') ok({ coords: { latitude: 30.2682, longitude: -97.7429 } } as GeolocationPosition);
      else
        fail({
          code: 1,
          PERMISSION_DENIED: 1,
          POSITION_UNAVAILABLE: 2,
          TIMEOUT: 3,
          message: 'denied',
        } as GeolocationPositionError);
    },
  };
  Object.defineProperty(navigator, 'geolocation', { value: geolocation, configurable: true });
}

function renderScreen() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <FindParkingScreen />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('FindParkingScreen', () => {
  it('lists the zones nearest the device, nearest first', async () => {
    stubGeolocation('granted');
    const urls = stubApi();
    renderScreen();
    const list = await screen.findByRole('list', { name: 'Zones' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows[0]!.textContent).toContain('1003');
    expect(rows[1]!.textContent).toContain('1207');
    expect(screen.getByRole('heading', { name: 'Zones near you' })).toBeTruthy();
    expect(urls.find((u) => u.includes('/Nearby'))).toContain('lat=30.2682&lng=-97.7429');
  });

  it('falls back to the city centre with a note and a retry when location is refused', async () => {
    stubGeolocation('denied');
    const urls = stubApi();
    renderScreen();
    expect(await screen.findByText('Location access is off')).toBeTruthy();
    expect(screen.getByText('Showing zones near the centre of Austin.', { exact: false })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
    await screen.findByRole('list', { name: 'Zones' });
    expect(urls.find((u) => u.includes('/Nearby'))).toContain('lat=30.2672&lng=-97.7431');
  });

  it('searches by zone number and says what to try when nothing matches', async () => {
    stubGeolocation('granted');
    const urls = stubApi([]);
    renderScreen();
    await screen.findByRole('list', { name: 'Zones' });
    await userEvent.setup().type(screen.getByRole('searchbox', { name: 'Search by zone number or address' }), '9999');
    expect(await screen.findByText('No zone matches “9999”.')).toBeTruthy();
    expect(screen.getByText('Check the zone number on the parking sign, or try a street name.')).toBeTruthy();
    expect(urls.filter((u) => u.includes('/Search'))).toEqual([
      '/api/Parking/Zones/Search?q=9999&limit=20&lat=30.26820&lng=-97.74290',
    ]);
  });

  it('opens a zone card with "Park here" leading to /confirmlocation', async () => {
    stubGeolocation('granted');
    stubApi();
    renderScreen();
    const list = await screen.findByRole('list', { name: 'Zones' });
    await userEvent.setup().click(within(list).getAllByRole('button')[0]!);
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByRole('link', { name: 'Park here' }).getAttribute('href')).toBe(
      '/confirmlocation?zone=1',
    );
  });
});

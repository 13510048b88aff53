import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import type { OperatorRole, OperatorZone } from '@parkit/contract';
import { Toaster } from '../../../lib/toasts.tsx';
import { stubApi } from '../../../testing/render.tsx';
import { ConsoleShell } from './console-shell.tsx';
import { ZoneEditorScreen } from './zone-editor.tsx';
import { ZoneImportScreen } from './zone-import.tsx';
import { ZonesScreen } from './zones-screen.tsx';

function Where() {
  return <output data-testid="location">{useLocation().pathname + useLocation().search}</output>;
}

function renderConsole(url: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const router = createMemoryRouter(
    [
      {
        path: '/operator',
        element: (
          <>
            <ConsoleShell />
            <Where />
          </>
        ),
        children: [
          { path: ':operatorId/zones', element: <ZonesScreen /> },
          { path: ':operatorId/zones/import', element: <ZoneImportScreen /> },
          { path: ':operatorId/zones/:zoneId', element: <ZoneEditorScreen /> },
        ],
      },
    ],
    { initialEntries: [url] },
  );
  render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
}

const mine = (role: OperatorRole) => (): [number, unknown] => [
  200,
  [{ OperatorId: 4, Name: 'Austin Parking', Role: role }],
];

const zone = (over: Partial<OperatorZone> = {}): OperatorZone => ({
  ZoneId: 11,
  ZoneNumber: 'A100',
  Name: 'Congress Ave',
  Address: '100 Congress Ave',
  City: 'Austin',
  State: 'TX',
  Zip: '78701',
  Latitude: 30.2672,
  Longitude: -97.7431,
  Kind: 'street',
  Capacity: 12,
  RatePerHour: 2.5,
  MaxStayMinutes: 120,
  PaidDays: [1, 2, 3, 4, 5],
  PaidFrom: '08:00',
  PaidUntil: '18:00',
  Curb: null,
  RetiredAt: null,
  ...over,
});

const list = (q = '', retired = 'include', offset = 0) =>
  `GET /api/Operator/4/Zones?q=${encodeURIComponent(q)}&retired=${retired}&offset=${offset}&limit=25`;

afterEach(() => vi.unstubAllGlobals());

describe('the zones list', () => {
  it('shows the zones with their status, pages on, and searches by text and status', async () => {
    const many = Array.from({ length: 25 }, (_, i) => zone({ ZoneId: i + 1, ZoneNumber: `A${100 + i}` }));
    const calls = stubApi({
      'GET /api/Operator/Mine': mine('manager'),
      [list()]: () => [200, { Zones: many, Total: 26 }],
      [list('', 'include', 25)]: () => [
        200,
        { Zones: [zone({ ZoneId: 99, ZoneNumber: 'Z9', RetiredAt: '2026-11-01T10:00:00Z' })], Total: 26 },
      ],
      [list('congress', 'only')]: () => [200, { Zones: [], Total: 0 }],
    });
    renderConsole('/operator/4/zones');
    expect(await screen.findByRole('link', { name: 'Zone A100' })).toBeTruthy();
    expect(screen.getByText('1–25 of 26')).toBeTruthy();
    expect(screen.getAllByText('12 spaces')).toHaveLength(25);
    expect(screen.getByRole('link', { name: 'New zone' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Previous' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    const row = (await screen.findByRole('link', { name: 'Zone Z9' })).closest('tr')!;
    expect(within(row).getByText('Retired')).toBeTruthy();
    expect(screen.getByText('26–26 of 26')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/operator/4/zones?page=2');

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'only' } });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Number, name or address' }), {
      target: { value: ' congress ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByText('No zone matches this search.')).toBeTruthy();
    expect(calls.map((c) => c.path)).toContain(list('congress', 'only').slice(4));
  });

  it('says when the operator has no zones, and when they could not be loaded', async () => {
    stubApi({ 'GET /api/Operator/Mine': mine('analyst'), [list()]: () => [200, { Zones: [], Total: 0 }] });
    renderConsole('/operator/4/zones');
    expect(await screen.findByText('This operator has no zones yet.')).toBeTruthy();
    // An analyst is offered no new zone.
    expect(screen.queryByRole('link', { name: 'New zone' })).toBeNull();
  });

  it('a failed load offers Try again', async () => {
    stubApi({ 'GET /api/Operator/Mine': mine('owner'), [list()]: () => [500, { message: 'boom' }] });
    renderConsole('/operator/4/zones');
    expect(await screen.findByText('Zones could not be loaded.')).toBeTruthy();
    expect(screen.getByRole('button', { name: /try again/i })).toBeTruthy();
  });
});

describe('the zone editor', () => {
  it('a manager creates a zone from typed fields; the body is what the contract takes', async () => {
    const made = zone({ ZoneId: 42, ZoneNumber: 'B7' });
    const calls = stubApi({
      'GET /api/Operator/Mine': mine('manager'),
      'POST /api/Operator/4/Zones': () => [201, made],
      'GET /api/Operator/4/Zones/42': () => [200, made],
    });
    renderConsole('/operator/4/zones/new');
    expect(await screen.findByRole('heading', { name: 'New zone', level: 1 })).toBeTruthy();
    const type = (label: string, value: string) =>
      fireEvent.change(screen.getByLabelText(label), { target: { value } });
    type('Latitude', '30.2672');
    type('Longitude', '-97.7431');
    type('Zone number', 'b7');
    type('Name', 'Congress Ave');
    type('Address', '100 Congress Ave');
    type('Capacity (spaces)', '12');
    type('Rate per hour', '2.50');
    fireEvent.click(screen.getByLabelText('Sat'));
    fireEvent.click(screen.getByRole('button', { name: 'Create zone' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/operator/4/zones/42'));
    const post = calls.find((c) => c.method === 'POST')!;
    expect(post.body).toMatchObject({
      ZoneNumber: 'B7',
      Latitude: 30.2672,
      Longitude: -97.7431,
      Capacity: 12,
      RatePerHour: 2.5,
      MaxStayMinutes: 120,
      PaidDays: [1, 2, 3, 4, 5, 7],
      PaidFrom: '08:00',
      PaidUntil: '18:00',
      Curb: null,
    });
    expect(await screen.findByRole('heading', { name: 'Zone B7', level: 1 })).toBeTruthy();
  });

  it('refuses bad input before sending, and puts the server’s refusal under its field', async () => {
    const calls = stubApi({
      'GET /api/Operator/Mine': mine('owner'),
      'PUT /api/Operator/4/Zones/11': () => [
        409,
        {
          message: 'Another zone of this operator has this number',
          errors: [{ field: 'ZoneNumber', message: 'Another zone of this operator has this number' }],
        },
      ],
      'GET /api/Operator/4/Zones/11': () => [200, zone()],
    });
    renderConsole('/operator/4/zones/11');
    const lat = await screen.findByLabelText('Latitude');
    expect((lat as HTMLInputElement).value).toBe('30.2672');
    fireEvent.change(lat, { target: { value: '91' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save zone' }));
    expect(await screen.findByText('Latitude must be a number from -90 to 90')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'PUT')).toHaveLength(0);

    fireEvent.change(lat, { target: { value: '30.2673' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save zone' }));
    expect(await screen.findByText('Another zone of this operator has this number')).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')?.body).toMatchObject({ Latitude: 30.2673, ZoneNumber: 'A100' });
  });

  it('retires a zone after a confirmation; a retired zone is read only', async () => {
    let stored = zone();
    const calls = stubApi({
      'GET /api/Operator/Mine': mine('manager'),
      'GET /api/Operator/4/Zones/11': () => [200, stored],
      'POST /api/Operator/4/Zones/11/Retire': () => {
        stored = zone({ RetiredAt: '2026-11-27T10:00:00Z' });
        return [200, stored];
      },
    });
    renderConsole('/operator/4/zones/11');
    fireEvent.click(await screen.findByRole('button', { name: 'Retire zone' }));
    const dialog = await screen.findByRole('dialog', { name: 'Retire zone A100?' });
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Retire zone' }));
    expect(await screen.findByText(/This zone is retired/)).toBeTruthy();
    expect(calls.filter((c) => c.path.endsWith('/Retire'))).toHaveLength(1);
    expect(screen.queryByRole('button', { name: 'Save zone' })).toBeNull();
    expect(screen.getByLabelText('Name').closest('fieldset')?.disabled).toBe(true);
  });

  it('an analyst reads a zone and can change nothing', async () => {
    stubApi({
      'GET /api/Operator/Mine': mine('analyst'),
      'GET /api/Operator/4/Zones/11': () => [200, zone()],
    });
    renderConsole('/operator/4/zones/11');
    expect(await screen.findByText('Your role can read zones but not change them.')).toBeTruthy();
    expect(screen.getByLabelText('Zone number').closest('fieldset')?.disabled).toBe(true);
    expect(screen.queryByRole('button', { name: 'Save zone' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Retire zone' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Draw a curb line' })).toBeNull();
  });

  it("another operator's zone (404) is not found", async () => {
    stubApi({
      'GET /api/Operator/Mine': mine('owner'),
      'GET /api/Operator/4/Zones/12': () => [404, { message: 'Zone not found' }],
    });
    renderConsole('/operator/4/zones/12');
    expect(await screen.findByText('Zone not found')).toBeTruthy();
  });
});

describe('importing zones', () => {
  const file = (text: string, name = 'zones.csv') => new File([text], name, { type: 'text/csv' });
  const report = (over: Record<string, unknown>) => ({
    Format: 'csv',
    Rows: 2,
    Valid: 1,
    Imported: 0,
    Refused: [{ Row: 3, ZoneNumber: 'B2', Reason: 'lat must be between -90 and 90' }],
    IgnoredColumns: ['colour'],
    DryRun: true,
    ...over,
  });

  it('checks the file first, lists the refused rows, then imports the rows that pass', async () => {
    const calls = stubApi({
      'GET /api/Operator/Mine': mine('manager'),
      'POST /api/Operator/4/Zones/Import': (body) =>
        (body as { DryRun: boolean }).DryRun ? [200, report({})] : [200, report({ DryRun: false, Imported: 1 })],
    });
    renderConsole('/operator/4/zones/import');
    const input = await screen.findByLabelText('Zone file (GeoJSON or CSV)');
    fireEvent.change(input, { target: { files: [file('zone_number,address\nB1,x\nB2,y')] } });
    // The file is read asynchronously: the screen says when the form holds it.
    expect(await screen.findByText('zones.csv is ready to be checked.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Check the file' }));
    const refused = await screen.findByRole('table', { name: 'Refused rows' });
    expect(within(refused).getByText('lat must be between -90 and 90')).toBeTruthy();
    expect(screen.getByText('Ignored columns: colour')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')[0]!.body).toEqual({
      File: 'zone_number,address\nB1,x\nB2,y',
      FileName: 'zones.csv',
      Format: 'zones',
      DryRun: true,
      SkipRefused: false,
    });
    fireEvent.click(screen.getByRole('button', { name: 'Skip the refused rows and import 1 zone' }));
    expect(await screen.findByRole('heading', { name: 'Imported' })).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')[1]!.body).toMatchObject({ DryRun: false, SkipRefused: true });
  });

  it('a city’s CDS feed: its zones and policies files go as one list, then the zones and policies are imported', async () => {
    const calls = stubApi({
      'GET /api/Operator/Mine': mine('manager'),
      'POST /api/Operator/4/Zones/Import': (body) =>
        (body as { DryRun: boolean }).DryRun
          ? [200, report({ Format: 'cds', Rows: 3, Valid: 3, Refused: [], IgnoredColumns: [], Policies: 0 })]
          : [
              200,
              report({
                Format: 'cds',
                Rows: 3,
                Valid: 3,
                Refused: [],
                IgnoredColumns: [],
                Imported: 3,
                Policies: 2,
                DryRun: false,
              }),
            ],
    });
    renderConsole('/operator/4/zones/import');
    fireEvent.click(await screen.findByRole('radio', { name: 'A city’s CDS Curbs feed (JSON)' }));
    const input = screen.getByLabelText('CDS feed files (JSON)');
    expect(input.hasAttribute('multiple')).toBe(true);
    const zonesDoc = '{"data":{"zones":[]}}';
    const policiesDoc = '{"data":{"policies":[]}}';
    fireEvent.change(input, {
      target: { files: [file(zonesDoc, 'zones.json'), file(policiesDoc, 'policies.json')] },
    });
    expect(await screen.findByText('zones.json, policies.json is ready to be checked.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Check the file' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Import 3 zones' }));
    expect(await screen.findByText(/2 price policies written/)).toBeTruthy();
    const posts = calls.filter((c) => c.method === 'POST').map((c) => c.body);
    expect(posts[0]).toEqual({
      File: `[${zonesDoc},${policiesDoc}]`,
      FileName: 'zones.json, policies.json',
      Format: 'cds',
      DryRun: true,
      SkipRefused: false,
    });
    expect(posts[1]).toMatchObject({ Format: 'cds', DryRun: false, SkipRefused: false });
  });

  it('without a file, says to choose one and sends nothing', async () => {
    const calls = stubApi({ 'GET /api/Operator/Mine': mine('owner') });
    renderConsole('/operator/4/zones/import');
    fireEvent.click(await screen.findByRole('button', { name: 'Check the file' }));
    expect(await screen.findByText('Choose a GeoJSON or CSV file')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toHaveLength(0);
  });

  it('an analyst gets no import', async () => {
    stubApi({ 'GET /api/Operator/Mine': mine('analyst') });
    renderConsole('/operator/4/zones/import');
    expect(await screen.findByText('Your role can read zones but not change them.')).toBeTruthy();
    expect(screen.queryByLabelText('Zone file (GeoJSON or CSV)')).toBeNull();
  });
});

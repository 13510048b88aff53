import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { maxVehicleYear, type Vehicle } from '@parkit/contract';
import { renderAt, stubApi } from '../../../testing/render.tsx';
import { VehicleEditor } from './vehicle-editor.tsx';

const camry: Vehicle = {
  VehicleID: 7,
  VehicleMake: 'Toyota',
  VehicleModel: 'Camry',
  PlateNumber: 'ABC123',
  PlateState: 'TX',
  VehicleColor: 'Silver',
  VehicleYear: '2020',
};

function referenceData(extra: Record<string, (body: unknown) => [number, unknown?]> = {}) {
  return stubApi({
    'GET /api/Vehicle/Makes': () => [
      200,
      [
        { PvValue: 'Toyota', PVID: 1 },
        { PvValue: 'Honda', PVID: 2 },
      ],
    ],
    'GET /api/Vehicle/Models/1': () => [
      200,
      [
        { PvValue: 'Corolla', PVID: 11 },
        { PvValue: 'RAV4', PVID: 12 },
      ],
    ],
    'GET /api/Vehicle/Models/2': () => [
      200,
      [
        { PvValue: 'Civic', PVID: 21 },
        { PvValue: 'Accord', PVID: 22 },
      ],
    ],
    'GET /api/Vehicle/Colors': () => [200, [{ PvDescription: 'Silver' }, { PvDescription: 'Black' }]],
    'GET /api/Core/States': () => [200, ['CA', 'TX']],
    'GET /api/Vehicle/List': () => [200, [camry]],
    ...extra,
  });
}

const select = (name: string) => screen.getByRole('combobox', { name });
const optionTexts = (el: HTMLElement) =>
  within(el)
    .getAllByRole('option')
    .map((o) => o.textContent);

describe('VehicleForm', () => {
  it('shows every validation message of the spec on an empty submit', async () => {
    const calls = referenceData();
    renderAt('/addvehicles', '/addvehicles', <VehicleEditor id={null} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    for (const message of [
      'VehicleMake is Required',
      'Vehicle Model is Required',
      'Plate Number is Required',
      'State is Required',
      'Vehicle Color is Required',
      'Please Select Year',
    ]) {
      expect(await screen.findByText(message)).toBeTruthy();
    }
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
    expect(document.activeElement).toBe(select('Vehicle Make'));
  });

  it('starts each field with its placeholder and shows list values uppercased', async () => {
    referenceData();
    renderAt('/addvehicles', '/addvehicles', <VehicleEditor id={null} />);
    await waitFor(() =>
      expect(optionTexts(select('Vehicle Make'))).toEqual(['Select Vehicle Make', 'TOYOTA', 'HONDA']),
    );
    expect(optionTexts(select('Vehicle Model'))).toEqual(['Select Vehicle Modal']);
    expect(screen.getByRole('textbox', { name: 'Vehicle Plate #' }).getAttribute('placeholder')).toBe(
      'Enter Vehicle Plate #',
    );
    await waitFor(() => expect(optionTexts(select('State'))).toEqual(['Select State', 'CA', 'TX']));
    await waitFor(() =>
      expect(optionTexts(select('Vehicle Color'))).toEqual(['Select Vehicle Color', 'SILVER', 'BLACK']),
    );
  });

  it('picks the year from next year down to 1900, as yyyy', () => {
    referenceData();
    renderAt('/addvehicles', '/addvehicles', <VehicleEditor id={null} />);
    const years = optionTexts(select('Vehicle Year'));
    const next = maxVehicleYear();
    expect(years[0]).toBe('Select Year');
    expect(years[1]).toBe(String(next));
    expect(years.at(-1)).toBe('1900');
    expect(years).toHaveLength(next - 1900 + 2);
    expect(years.slice(1).every((y) => /^\d{4}$/.test(y ?? ''))).toBe(true);
  });

  it('loads the models of the chosen make and clears the model when the make changes', async () => {
    const calls = referenceData();
    renderAt('/addvehicles', '/addvehicles', <VehicleEditor id={null} />);
    await screen.findByRole('option', { name: 'TOYOTA' });
    await userEvent.selectOptions(select('Vehicle Make'), 'TOYOTA');
    await screen.findByRole('option', { name: 'COROLLA' });
    await userEvent.selectOptions(select('Vehicle Model'), 'RAV4');
    expect((select('Vehicle Model') as HTMLSelectElement).value).toBe('RAV4');

    await userEvent.selectOptions(select('Vehicle Make'), 'HONDA');
    expect((select('Vehicle Model') as HTMLSelectElement).value).toBe('');
    await waitFor(() =>
      expect(optionTexts(select('Vehicle Model'))).toEqual(['Select Vehicle Modal', 'CIVIC', 'ACCORD']),
    );
    expect(calls.map((c) => c.path)).toEqual(
      expect.arrayContaining(['/api/Vehicle/Models/1', '/api/Vehicle/Models/2']),
    );
  });

  it('adds a first vehicle: posts the form, sets is_vehicle and goes to /homepage', async () => {
    const calls = referenceData({ 'POST /api/Vehicle/Add': () => [201, { VehicleID: 9 }] });
    renderAt('/addvehicles', '/addvehicles', <VehicleEditor id={null} />);
    await screen.findByRole('option', { name: 'HONDA' });
    await userEvent.selectOptions(select('Vehicle Make'), 'HONDA');
    await screen.findByRole('option', { name: 'CIVIC' });
    await userEvent.selectOptions(select('Vehicle Model'), 'CIVIC');
    await userEvent.type(screen.getByRole('textbox', { name: 'Vehicle Plate #' }), 'xyz 987');
    await screen.findByRole('option', { name: 'CA' });
    await userEvent.selectOptions(select('State'), 'CA');
    await userEvent.selectOptions(select('Vehicle Color'), 'BLACK');
    await userEvent.selectOptions(select('Vehicle Year'), '2019');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/homepage'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      VehicleMake: 'HONDA',
      VehicleModel: 'CIVIC',
      PlateNumber: 'XYZ 987',
      PlateState: 'CA',
      VehicleColor: 'BLACK',
      VehicleYear: '2019',
    });
    expect(localStorage.getItem('is_vehicle')).toBe('true');
    expect(await screen.findByText('Vehicle Added Successfully')).toBeTruthy();
  });

  it('edit mode: prefilled from the list, its model among the options; saves and goes to /myvehicles', async () => {
    localStorage.setItem('is_vehicle', 'true');
    const calls = referenceData({
      // The list of models lacks the vehicle's own: it is added to the options.
      'POST /api/Vehicle/Update': () => [200, camry],
    });
    renderAt('/addvehicles?id=7', '/addvehicles', <VehicleEditor id="7" />);
    await waitFor(() => expect((select('Vehicle Make') as HTMLSelectElement).value).toBe('TOYOTA'));
    expect((select('Vehicle Model') as HTMLSelectElement).value).toBe('CAMRY');
    await waitFor(() =>
      expect(optionTexts(select('Vehicle Model'))).toEqual(['Select Vehicle Modal', 'CAMRY', 'COROLLA', 'RAV4']),
    );
    expect((screen.getByRole('textbox', { name: 'Vehicle Plate #' }) as HTMLInputElement).value).toBe('ABC123');
    expect((select('State') as HTMLSelectElement).value).toBe('TX');
    expect((select('Vehicle Color') as HTMLSelectElement).value).toBe('SILVER');
    expect((select('Vehicle Year') as HTMLSelectElement).value).toBe('2020');

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/myvehicles'));
    expect(calls.find((c) => c.method === 'POST')?.body).toMatchObject({
      VehicleId: 7,
      VehicleModel: 'CAMRY',
      VehicleYear: '2020',
    });
    expect(await screen.findByText('Vehicle Edit Successfully')).toBeTruthy();
  });

  it('shows a server field error on its field and stays', async () => {
    referenceData({
      'POST /api/Vehicle/Update': () => [
        409,
        {
          message: 'You already have a vehicle with this plate in this state',
          errors: [{ field: 'PlateNumber', message: 'You already have a vehicle with this plate in this state' }],
        },
      ],
    });
    renderAt('/addvehicles?id=7', '/addvehicles', <VehicleEditor id="7" />);
    await waitFor(() => expect((select('Vehicle Make') as HTMLSelectElement).value).toBe('TOYOTA'));
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    const plate = screen.getByRole('textbox', { name: 'Vehicle Plate #' });
    await waitFor(() => expect(plate.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('You already have a vehicle with this plate in this state')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/addvehicles?id=7');
  });

  it('says so when the id is not among the vehicles', async () => {
    referenceData();
    renderAt('/addvehicles?id=99', '/addvehicles', <VehicleEditor id="99" />);
    expect(await screen.findByText('Vehicle not found')).toBeTruthy();
  });
});

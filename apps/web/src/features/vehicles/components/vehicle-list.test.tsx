import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { Vehicle } from '@parkit/contract';
import { renderAt, stubApi } from '../../../testing/render.tsx';
import { VehicleList } from './vehicle-list.tsx';

const v = (id: number, make: string, model: string, plate: string): Vehicle => ({
  VehicleID: id,
  VehicleMake: make,
  VehicleModel: model,
  PlateNumber: plate,
  PlateState: 'tx',
  VehicleColor: 'Black',
  VehicleYear: '2021',
});

describe('VehicleList', () => {
  it('shows a skeleton, then numbered cards with uppercased rows and an edit link each', async () => {
    stubApi({
      'GET /api/Vehicle/List': () => [200, [v(4, 'Toyota', 'Camry', 'abc123'), v(9, 'Honda', 'Civic', 'xyz9')]],
    });
    renderAt('/myvehicles', '/myvehicles', <VehicleList />);
    expect(screen.getByText('Loading')).toBeTruthy();
    const first = await screen.findByRole('article', { name: 'Vehicle 1' });
    expect(within(first).getByText('Vehicle Make').nextSibling?.textContent).toBe('TOYOTA');
    expect(within(first).getByText('Model').nextSibling?.textContent).toBe('CAMRY');
    expect(within(first).getByText('Vehicle Plate #').nextSibling?.textContent).toBe('ABC123');
    expect(within(first).getByText('State').nextSibling?.textContent).toBe('TX');
    expect(within(first).getByRole('link', { name: 'Edit vehicle 1' }).getAttribute('href')).toBe('/addvehicles?id=4');
    const second = screen.getByRole('article', { name: 'Vehicle 2' });
    expect(within(second).getByRole('link', { name: 'Edit vehicle 2' }).getAttribute('href')).toBe('/addvehicles?id=9');
    expect(screen.getByRole('link', { name: '+ Add Vehicle' }).getAttribute('href')).toBe('/addvehicles');
  });

  it('says the list is empty and offers + Add Vehicle', async () => {
    stubApi({ 'GET /api/Vehicle/List': () => [200, []] });
    renderAt('/myvehicles', '/myvehicles', <VehicleList />);
    expect(await screen.findByText('You have not added a vehicle yet.')).toBeTruthy();
    expect(screen.getByRole('link', { name: '+ Add Vehicle' })).toBeTruthy();
  });

  it('leaves the list blank on a failed load and offers to try again', async () => {
    let fail = true;
    stubApi({
      'GET /api/Vehicle/List': () => (fail ? [500, { message: 'boom' }] : [200, [v(1, 'Kia', 'Soul', 'K1')]]),
    });
    renderAt('/myvehicles', '/myvehicles', <VehicleList />);
    expect(await screen.findByText('Your vehicles could not be loaded.')).toBeTruthy();
    expect(screen.queryByRole('article')).toBeNull();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Vehicle 1' })).toBeTruthy();
  });

  it('deletes after confirming; removing the last vehicle sets is_vehicle to false at once', async () => {
    localStorage.setItem('is_vehicle', 'true');
    let list = [v(4, 'Toyota', 'Camry', 'abc123')];
    // The refetch after the delete stays open until released: the empty list on the screen must
    // not wait for it to bring storage into line.
    let releaseRefetch = () => {};
    const refetch = new Promise<void>((resolve) => (releaseRefetch = resolve));
    let deleted = false;
    const calls = stubApi({
      'GET /api/Vehicle/List': async () => {
        if (deleted) await refetch;
        return [200, list];
      },
      'POST /api/Vehicle/Delete': () => {
        list = [];
        deleted = true;
        return [200, { message: 'Vehicle Deleted Successfully' }];
      },
    });
    renderAt('/myvehicles', '/myvehicles', <VehicleList />);
    await userEvent.click(await screen.findByRole('button', { name: 'Delete vehicle 1' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete Vehicle?' });
    expect(within(dialog).getByText('Vehicle 1 (ABC123) will be removed from your account.')).toBeTruthy();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: 'Delete vehicle 1' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Yes, Delete' }));
    expect(await screen.findByText('You have not added a vehicle yet.')).toBeTruthy();
    expect(localStorage.getItem('is_vehicle')).toBe('false');
    expect(calls.find((c) => c.method === 'POST')).toMatchObject({
      path: '/api/Vehicle/Delete',
      body: { VehicleId: 4 },
    });
    releaseRefetch();
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/Vehicle/List')).toHaveLength(2));
    expect(await screen.findByText('Vehicle Deleted Successfully')).toBeTruthy();
    expect(localStorage.getItem('is_vehicle')).toBe('false');
  });
});

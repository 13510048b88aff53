import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it } from 'vitest';
import { details, renderAt, stubApi } from '../../testing/render.tsx';
import { Component as ParkingSessionDetail } from './parking-session-detail.tsx';

// /ParkingSessionDetail shows /ClosingReceipt's states (SessionLoader): not found, failed with Try again.
describe('/ParkingSessionDetail', () => {
  beforeEach(() => {
    localStorage.setItem('access_token', 't');
    localStorage.setItem('p_user_id', '7');
    localStorage.setItem('username', 'riley');
    localStorage.setItem('user_data', JSON.stringify(details()));
  });

  it('says not found for a bad id without asking the server, and for a 404', async () => {
    const calls = stubApi({ 'GET /api/Parking/Session/9': () => [404, { message: 'Not Found' }] });
    const bad = renderAt('/ParkingSessionDetail?id=abc', '/ParkingSessionDetail', <ParkingSessionDetail />);
    expect(await screen.findByText('This parking session was not found.')).toBeTruthy();
    expect(calls.filter((c) => c.path.startsWith('/api/Parking/Session'))).toEqual([]);
    bad.unmount();
    renderAt('/ParkingSessionDetail?id=9', '/ParkingSessionDetail', <ParkingSessionDetail />);
    expect(await screen.findByText('This parking session was not found.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Download receipt (PDF)' })).toBeNull();
  });

  it('offers Try again when the session could not be loaded, and asks again', async () => {
    const calls = stubApi({ 'GET /api/Parking/Session/9': () => [500, { message: 'boom' }] });
    renderAt('/ParkingSessionDetail?id=9', '/ParkingSessionDetail', <ParkingSessionDetail />);
    expect(await screen.findByText('The receipt could not be loaded.')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await screen.findByText('The receipt could not be loaded.');
    expect(calls.filter((c) => c.path === '/api/Parking/Session/9').length).toBeGreaterThanOrEqual(2);
  });
});

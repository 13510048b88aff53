import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { setLanguage } from '../../../lib/i18n.ts';
import { details, renderAt, stubApi } from '../../../testing/render.tsx';
import { ProfileScreen } from './profile-screen.tsx';

const options = { AutoStartParking: false, AutoExtendParking: true, MaxPaymentEnabled: false, MaxPaymentAmount: 25 };

function signInMember() {
  localStorage.setItem('access_token', 't');
  localStorage.setItem('p_user_id', '7');
  localStorage.setItem('user_data', JSON.stringify(details()));
}

const renderProfile = () => renderAt('/profile', '/profile', <ProfileScreen />);

describe('profile', () => {
  afterEach(() => setLanguage('en'));

  it("a guest sees 'Guest User' and none of the member's items", () => {
    const calls = stubApi({});
    localStorage.setItem('is_guestUser', 'true');
    renderProfile();
    expect(screen.getByRole('heading', { name: 'Account', level: 1 })).toBeTruthy();
    expect(screen.getByText('Guest User')).toBeTruthy();
    for (const name of ['EDIT', 'My Vehicles', 'Support']) expect(screen.queryByRole('link', { name })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Logout' })).toBeNull();
    expect(screen.queryByRole('switch')).toBeNull();
    expect(screen.queryByText('Default Parking Options')).toBeNull();
    expect(calls).toEqual([]);
  });

  it('a member sees the card, the three switches from the server and the links', async () => {
    signInMember();
    stubApi({
      'GET /api/Account/Details': () => [200, details()],
      'GET /api/Account/ParkingOptions': () => [200, options],
    });
    renderProfile();
    expect(screen.getByText('Riley Tester')).toBeTruthy();
    expect(screen.getByText('riley@example.test')).toBeTruthy();
    expect(screen.getByText('RT')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'EDIT' }).getAttribute('href')).toBe('/editprofile');
    expect(screen.getByRole('link', { name: 'My Vehicles' }).getAttribute('href')).toBe('/myvehicles');
    expect(screen.getByRole('link', { name: 'Support' }).getAttribute('href')).toBe('/supportpage');
    const start = await screen.findByRole('switch', { name: 'Auto Start Parking Session' });
    expect(start.getAttribute('aria-checked')).toBe('false');
    expect(screen.getByRole('switch', { name: 'Auto Extend Parking Session' }).getAttribute('aria-checked')).toBe(
      'true',
    );
    expect(screen.getByRole('switch', { name: 'Max Payment Amount' }).getAttribute('aria-checked')).toBe('false');
    expect(screen.queryByLabelText('Maximum per session')).toBeNull();
  });

  it('saves one switch at a time and puts it back when the server refuses', async () => {
    signInMember();
    let fail = false;
    const calls = stubApi({
      'GET /api/Account/Details': () => [200, details()],
      'GET /api/Account/ParkingOptions': () => [200, options],
      'POST /api/Account/ParkingOptions': (body) =>
        fail ? [500, { message: 'x' }] : [200, { ...options, ...(body as object) }],
    });
    renderProfile();
    const start = await screen.findByRole('switch', { name: 'Auto Start Parking Session' });
    await userEvent.click(start);
    await waitFor(() => expect(start.getAttribute('aria-checked')).toBe('true'));
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ AutoStartParking: true }]);

    fail = true;
    const extend = screen.getByRole('switch', { name: 'Auto Extend Parking Session' });
    await userEvent.click(extend);
    expect(await screen.findByText('An unkown exception has occur. Please Contact administrator.')).toBeTruthy();
    await waitFor(() => expect(extend.getAttribute('aria-checked')).toBe('true'));
    expect(start.getAttribute('aria-checked')).toBe('true');
  });

  it('with Max Payment on, the amount is checked and saved', async () => {
    signInMember();
    const calls = stubApi({
      'GET /api/Account/Details': () => [200, details()],
      'GET /api/Account/ParkingOptions': () => [200, { ...options, MaxPaymentEnabled: true }],
      'POST /api/Account/ParkingOptions': (body) => [200, { ...options, MaxPaymentEnabled: true, ...(body as object) }],
    });
    renderProfile();
    const amount = await screen.findByLabelText('Maximum per session');
    expect((amount as HTMLInputElement).value).toBe('25.00');
    await userEvent.clear(amount);
    await userEvent.type(amount, '900');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Enter an amount from 1.00 to 500.00')).toBeTruthy();
    await userEvent.clear(amount);
    await userEvent.type(amount, '12.5');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Max payment amount saved')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST').map((c) => c.body)).toEqual([{ MaxPaymentAmount: 12.5 }]);
  });

  it("the logout dialog: NO keeps the session, 'Yes, Logout' revokes it, clears storage and opens /parkit", async () => {
    signInMember();
    const calls = stubApi({
      'GET /api/Account/Details': () => [200, details()],
      'GET /api/Account/ParkingOptions': () => [200, options],
      'POST /api/Account/Logout': () => [200, { message: 'Logged out' }],
    });
    renderProfile();
    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    let dialog = await screen.findByRole('dialog', { name: 'Logout?' });
    expect(within(dialog).getByText('Are you sure you want to logout?')).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('button', { name: 'NO' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(localStorage.getItem('access_token')).toBe('t');

    await userEvent.click(screen.getByRole('button', { name: 'Logout' }));
    dialog = await screen.findByRole('dialog', { name: 'Logout?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, Logout' }));
    expect(await screen.findByText('/parkit')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST' && c.path === '/api/Account/Logout')).toBe(true);
    expect(localStorage.getItem('access_token')).toBeNull();
    expect(localStorage.getItem('user_data')).toBeNull();
  });

  it('switches to Hindi', async () => {
    localStorage.setItem('is_guestUser', 'true');
    stubApi({});
    renderProfile();
    await userEvent.click(screen.getByLabelText('हिन्दी'));
    expect(await screen.findByRole('heading', { name: 'खाता', level: 1 })).toBeTruthy();
    expect(screen.getByText('अतिथि उपयोगकर्ता')).toBeTruthy();
    expect(localStorage.getItem('language')).toBe('hi');
  });

  it('offers English, Hindi and Spanish, chosen by arrow keys too, and switches to Spanish', async () => {
    localStorage.setItem('is_guestUser', 'true');
    stubApi({});
    renderProfile();
    const radios = screen.getAllByRole('radio');
    expect(radios.map((r) => r.closest('label')!.textContent)).toEqual(['English', 'हिन्दी', 'Español']);
    expect(screen.getByRole('radio', { name: 'English' })).toHaveProperty('checked', true);
    await userEvent.click(screen.getByLabelText('Español'));
    expect(await screen.findByRole('heading', { name: 'Cuenta', level: 1 })).toBeTruthy();
    expect(screen.getByText('Usuario invitado')).toBeTruthy();
    expect(localStorage.getItem('language')).toBe('es');
    expect(document.documentElement.lang).toBe('es');
    // From the keyboard: the focused choice moves with the arrows and is chosen as it moves.
    screen.getByRole('radio', { name: 'Español' }).focus();
    await userEvent.keyboard('{ArrowLeft}');
    expect(await screen.findByText('अतिथि उपयोगकर्ता')).toBeTruthy();
    expect(localStorage.getItem('language')).toBe('hi');
  });
});

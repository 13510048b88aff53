import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { connectSession } from '../lib/session-store.ts';
import { details, stubApi } from '../testing/render.tsx';
import { DashboardScreen } from '../features/profile/components/dashboard-screen.tsx';
import { ProfileScreen } from '../features/profile/components/profile-screen.tsx';
import { EditProfile } from '../features/edit-profile/components/edit-profile.tsx';

// Edit Profile refreshes what /profile and /dashboard show, in the same page (no reload).
// The server is a little stateful fake: Update changes the record that Details reads.
describe('Edit Profile, then /profile and /dashboard', () => {
  it('shows the saved address on /profile at once, and neither /dashboard nor a later visit brings the old one back', async () => {
    let record = details({
      FirstName: 'Ann',
      LastName: 'Lee',
      City: 'Austin',
      State: 'TX',
      ZipCode: '78701',
      AddressLine1: '1 Congress Ave',
      Balance: 12.5,
      CurrencySymbol: '$',
    });
    // After the save the server is slow to answer Details: /profile must not wait for it.
    let hold: Promise<void> | null = null;
    let release = () => {};
    const calls = stubApi({
      'GET /api/Account/Details': async () => {
        if (hold) await hold;
        return [200, record];
      },
      'GET /api/Account/ParkingOptions': () => [
        200,
        { AutoStartParking: false, AutoExtendParking: false, MaxPaymentEnabled: false, MaxPaymentAmount: 25 },
      ],
      'GET /api/Core/States': () => [200, ['CA', 'TX']],
      'POST /api/Account/Update': (body) => {
        const b = body as Record<string, string>;
        record = { ...record, AddressLine1: b.AddressLine1!, City: b.City!, State: b.State!, ZipCode: b.ZipCode! };
        hold = new Promise((r) => (release = r));
        return [200, { ...record, message: 'User Updated' }];
      },
    });
    localStorage.setItem('access_token', 't');
    localStorage.setItem('p_user_id', '7');
    localStorage.setItem('username', 'riley');
    localStorage.setItem('user_data', JSON.stringify(record));

    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    connectSession(client);
    const router = createMemoryRouter(
      [
        { path: '/dashboard', element: <DashboardScreen /> },
        { path: '/profile', element: <ProfileScreen /> },
        { path: '/editprofile', element: <EditProfile /> },
      ],
      { initialEntries: ['/dashboard'] },
    );
    render(
      <QueryClientProvider client={client}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    expect((await screen.findByTestId('balance')).textContent).toBe('$12.50');

    await act(() => router.navigate('/profile'));
    expect(screen.getByText('Ann Lee')).toBeTruthy();
    expect(screen.getByTestId('member-place').textContent).toBe('Austin, TX');

    await userEvent.click(screen.getByRole('link', { name: 'EDIT' }));
    await screen.findByRole('option', { name: 'CA' });
    const city = screen.getByLabelText('City');
    await userEvent.clear(city);
    await userEvent.type(city, 'San Jose');
    await userEvent.selectOptions(screen.getByLabelText('State'), 'CA');
    await userEvent.click(screen.getByRole('button', { name: 'Ok' }));

    // Back on /profile by the router, before Details answers: the card shows the saved place, the
    // name and initials stay.
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect((await screen.findByTestId('member-place')).textContent).toBe('San Jose, CA');
    expect(screen.getByText('Ann Lee')).toBeTruthy();
    expect(screen.getByText('AL')).toBeTruthy();
    release();

    // /dashboard loads the account again; the cached account from before the save does not put
    // Austin back into the session (user_data), so Edit Profile opens with San Jose.
    const loads = () => calls.filter((c) => c.path === '/api/Account/Details').length;
    const before = loads();
    await act(() => router.navigate('/dashboard'));
    await waitFor(() => expect(loads()).toBeGreaterThan(before));
    expect(screen.getByTestId('balance').textContent).toBe('$12.50');
    expect(JSON.parse(localStorage.getItem('user_data')!)).toMatchObject({ City: 'San Jose', State: 'CA' });
    await act(() => router.navigate('/editprofile'));
    expect((screen.getByLabelText('City') as HTMLInputElement).value).toBe('San Jose');
    await act(() => router.navigate('/profile'));
    expect(screen.getByTestId('member-place').textContent).toBe('San Jose, CA');
  });
});

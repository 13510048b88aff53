import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { UserData } from '@parkit/contract';
import { renderAt, stubApi } from '../../../testing/render.tsx';
import { EditProfile } from './edit-profile.tsx';

const user: UserData = {
  MemberId: 12,
  EmailAddress: 'ann@example.com',
  PhoneNumber: '5125550100',
  FirstName: 'Ann',
  LastName: 'Lee',
  UserName: 'ann-old',
  AddressLine1: '1 Congress Ave',
  AddressLine2: 'Suite 2',
  City: 'Austin',
  State: '',
  ZipCode: '78701',
  MinBalance: '',
};

function signIn(u: Partial<UserData> = {}) {
  localStorage.setItem('user_data', JSON.stringify({ ...user, ...u }));
  localStorage.setItem('username', 'ann');
}

const field = (name: string) => screen.getByLabelText(name) as HTMLInputElement & HTMLSelectElement;

describe('EditProfile', () => {
  it('shows username (from username), email and phone read-only, and TX when no state is saved', async () => {
    signIn();
    stubApi({ 'GET /api/Core/States': () => [200, ['CA', 'TX']] });
    renderAt('/editprofile', '/editprofile', <EditProfile />);
    for (const [label, value] of [
      ['Username', 'ann'],
      ['Email', 'ann@example.com'],
      ['Mobile Number', '5125550100'],
    ] as const) {
      expect(field(label).value).toBe(value);
      expect(field(label).disabled).toBe(true);
    }
    expect(field('AddressLine 1').value).toBe('1 Congress Ave');
    expect(field('City').value).toBe('Austin');
    expect(field('ZipCode').value).toBe('78701');
    await screen.findByRole('option', { name: 'CA' });
    expect(field('State').value).toBe('TX');
    expect(screen.getAllByRole('option')[0]?.textContent).toBe('Select State');
  });

  it('keeps the saved state, even when the states list fails', async () => {
    signIn({ State: 'NM' });
    const calls = stubApi({ 'GET /api/Core/States': () => [500, { message: 'down' }] });
    renderAt('/editprofile', '/editprofile', <EditProfile />);
    await waitFor(() => expect(calls).toHaveLength(1));
    expect(field('State').value).toBe('NM');
    expect(screen.queryByText('down')).toBeNull();
  });

  it('ZipCode takes digit keys only, and none once it holds more than 11 characters', async () => {
    signIn({ ZipCode: '' });
    stubApi({ 'GET /api/Core/States': () => [200, ['TX']] });
    renderAt('/editprofile', '/editprofile', <EditProfile />);
    const zip = field('ZipCode');
    await userEvent.type(zip, '7a8-7 0b1');
    expect(zip.value).toBe('78701');
    await userEvent.type(zip, '12345678');
    expect(zip.value).toBe('787011234567'); // 12 characters: the 13th key was refused
    expect(fireEvent.keyDown(zip, { key: 'Backspace' })).toBe(true);
  });

  it('shows the spec messages for empty editable fields', async () => {
    signIn({ AddressLine1: '', City: '', ZipCode: '' });
    const calls = stubApi({ 'GET /api/Core/States': () => [200, ['TX']] });
    renderAt('/editprofile', '/editprofile', <EditProfile />);
    await userEvent.selectOptions(field('State'), '');
    await userEvent.click(screen.getByRole('button', { name: 'Ok' }));
    for (const m of ['AddressLine1 is Required', 'City is Required', 'State is Required', 'ZipCode is Required']) {
      expect(await screen.findByText(m)).toBeTruthy();
    }
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('saves the spec payload, keeps user_data in step, says User Updated and opens /profile', async () => {
    signIn();
    const calls = stubApi({
      'GET /api/Core/States': () => [200, ['CA', 'TX']],
      'POST /api/Account/Update': () => [200, { message: 'User Updated' }],
    });
    renderAt('/editprofile', '/editprofile', <EditProfile />);
    await screen.findByRole('option', { name: 'CA' });
    await userEvent.clear(field('City'));
    await userEvent.type(field('City'), 'San Jose');
    await userEvent.selectOptions(field('State'), 'CA');
    await userEvent.click(screen.getByRole('button', { name: 'Ok' }));
    await waitFor(() => expect(screen.getByTestId('location').textContent).toBe('/profile'));
    expect(calls.find((c) => c.method === 'POST')?.body).toEqual({
      ID: 12,
      EmailAddress: 'ann@example.com',
      PhoneNumber: '5125550100',
      FirstName: 'Ann',
      LastName: 'Lee',
      UserName: 'ann',
      AddressLine1: '1 Congress Ave',
      AddressLine2: 'Suite 2',
      City: 'San Jose',
      State: 'CA',
      ZipCode: '78701',
      MinBalance: '0',
    });
    expect(JSON.parse(localStorage.getItem('user_data')!)).toMatchObject({
      City: 'San Jose',
      State: 'CA',
      MemberId: 12,
    });
    expect(await screen.findByText('User Updated')).toBeTruthy();
  });

  it('disables Ok while saving and shows the response Message on failure', async () => {
    signIn();
    let answer: (r: [number, unknown]) => void = () => {};
    stubApi({
      'GET /api/Core/States': () => [200, ['TX']],
      'POST /api/Account/Update': () => new Promise((r) => (answer = r)),
    });
    renderAt('/editprofile', '/editprofile', <EditProfile />);
    const ok = screen.getByRole('button', { name: 'Ok' });
    await userEvent.click(ok);
    await waitFor(() => expect((ok as HTMLButtonElement).disabled).toBe(true));
    answer([
      400,
      {
        message: 'Please correct the highlighted fields',
        Message: 'Enter a 5-digit ZIP code (or ZIP+4)',
        errors: [{ field: 'ZipCode', message: 'Enter a 5-digit ZIP code (or ZIP+4)' }],
      },
    ]);
    await waitFor(() => expect((ok as HTMLButtonElement).disabled).toBe(false));
    expect(await screen.findAllByText('Enter a 5-digit ZIP code (or ZIP+4)')).toHaveLength(2); // toast and field
    expect(screen.getByTestId('location').textContent).toBe('/editprofile');
  });

  it('asks to sign in when there is no saved user data', () => {
    stubApi({});
    renderAt('/editprofile', '/editprofile', <EditProfile />);
    expect(screen.getByText('Sign in to edit your profile.')).toBeTruthy();
  });
});

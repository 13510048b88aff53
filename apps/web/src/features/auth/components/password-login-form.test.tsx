import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { details, renderAt, stubApi, token } from '../../../testing/render.tsx';
import { LoginScreen } from './login-screen.tsx';

const renderLogin = (url = '/login') => renderAt(url, '/login', <LoginScreen />);

describe('login', () => {
  it('checks the fields with the contract messages before any request', async () => {
    const calls = stubApi({});
    renderLogin();
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Username is Required')).toBeTruthy();
    expect(screen.getByText('Password is required')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('shows a refused password beside the field and stays', async () => {
    stubApi({
      'POST /token': () => [
        400,
        {
          message: 'Invalid username or password',
          errors: [{ field: 'password', message: 'Invalid username or password' }],
        },
      ],
    });
    renderLogin();
    await userEvent.type(screen.getByLabelText('Username or Email'), 'demo');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong-one');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('Invalid username or password')).toBeTruthy();
    expect(screen.getByTestId('location').textContent).toBe('/login');
    expect(localStorage.getItem('access_token')).toBeNull();
  });

  it('signs in with the form-encoded token POST, stores the spec keys and opens /addvehicles without a vehicle', async () => {
    const calls = stubApi({ 'POST /token': () => [200, token()], 'GET /api/Account/Details': () => [200, details()] });
    localStorage.setItem('is_guestUser', 'true');
    renderLogin();
    await userEvent.type(screen.getByLabelText('Username or Email'), 'riley');
    await userEvent.type(screen.getByLabelText('Password'), 'correct-horse-42');
    await userEvent.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByText('/addvehicles')).toBeTruthy();
    expect(calls[0]).toEqual({
      method: 'POST',
      path: '/token',
      body: { grant_type: 'password', username: 'riley', password: 'correct-horse-42' },
    });
    expect(localStorage.getItem('access_token')).toBe('header.payload.sig');
    expect(localStorage.getItem('p_user_id')).toBe('7');
    expect(localStorage.getItem('username')).toBe('riley');
    expect(localStorage.getItem('is_vehicle')).toBe('false');
    expect(localStorage.getItem('is_guestUser')).toBeNull();
  });

  it('"Login with OTP" sends a code to the phone and opens /otp', async () => {
    const calls = stubApi({ 'POST /api/Account/SendOtp': () => [202, { message: 'sent', PhoneNumber: '******4567' }] });
    renderLogin('/login?mode=otp');
    expect(screen.getByRole('heading', { name: 'Login with OTP' })).toBeTruthy();
    const phone = screen.getByLabelText('Mobile Number');
    await userEvent.type(phone, '555-123-4567');
    expect((phone as HTMLInputElement).value).toBe('5551234567');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('/otp?phone=5551234567&purpose=login')).toBeTruthy();
    expect(calls[0]?.body).toEqual({ PhoneNumber: '5551234567' });
  });

  it('"Forgot password?" explains the code sign-in and still goes to /otp when a code went out seconds ago', async () => {
    stubApi({ 'POST /api/Account/SendOtp': () => [429, { message: 'Please wait before asking for another code' }] });
    renderLogin();
    await userEvent.click(screen.getByRole('link', { name: 'Forgot password?' }));
    expect(
      await screen.findByText(/sign in with a code sent to your mobile number, then choose a new password/),
    ).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Mobile Number'), '5551234567');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('/otp?phone=5551234567&purpose=forgot')).toBeTruthy();
  });
});

import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { renderAt, stubApi } from '../../../testing/render.tsx';
import { RegisterScreen } from './register-screen.tsx';

async function fill() {
  await userEvent.type(screen.getByLabelText('First Name'), 'Riley');
  await userEvent.type(screen.getByLabelText('Last Name'), 'Tester');
  await userEvent.type(screen.getByLabelText('Username'), 'riley');
  await userEvent.type(screen.getByLabelText('Email'), 'riley@example.test');
  await userEvent.type(screen.getByLabelText('Mobile Number'), '5551234567');
  await userEvent.type(screen.getByLabelText('Password'), 'correct-horse-42');
}

describe('register', () => {
  it('shows every required-field message from the contract schema', async () => {
    stubApi({});
    renderAt('/register', '/register', <RegisterScreen />);
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    for (const m of [
      'First name is required',
      'Last name is required',
      'Username is Required',
      'Email is required',
      'PhoneNumber is Required',
      'Password is required',
    ]) {
      expect(await screen.findByText(m)).toBeTruthy();
    }
  });

  it('refuses letters in the mobile number and keys past 11 characters', async () => {
    stubApi({});
    renderAt('/register', '/register', <RegisterScreen />);
    const phone = screen.getByLabelText('Mobile Number') as HTMLInputElement;
    await userEvent.type(phone, 'a1b2c3');
    expect(phone.value).toBe('123');
    await userEvent.clear(phone);
    await userEvent.type(phone, '1234567890123456');
    expect(phone.value).toBe('123456789012');
  });

  it('puts each taken field from a 409 beside its field', async () => {
    stubApi({
      'POST /api/Account/Register': () => [
        409,
        {
          message: 'This username is already taken',
          errors: [
            { field: 'UserName', message: 'This username is already taken' },
            { field: 'PhoneNumber', message: 'This mobile number is already registered' },
          ],
        },
      ],
    });
    renderAt('/register', '/register', <RegisterScreen />);
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('This username is already taken')).toBeTruthy();
    expect(screen.getByText('This mobile number is already registered')).toBeTruthy();
    expect(screen.getByLabelText('Username').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByTestId('location').textContent).toBe('/register');
  });

  it('sends the contract payload and goes on to /otp with the phone', async () => {
    const calls = stubApi({
      'POST /api/Account/Register': () => [201, { message: 'sent', PhoneNumber: '******4567' }],
    });
    renderAt('/register', '/register', <RegisterScreen />);
    await fill();
    await userEvent.click(screen.getByRole('button', { name: 'Register' }));
    expect(await screen.findByText('/otp?phone=5551234567&purpose=register')).toBeTruthy();
    expect(calls[0]?.body).toEqual({
      FirstName: 'Riley',
      LastName: 'Tester',
      UserName: 'riley',
      EmailAddress: 'riley@example.test',
      PhoneNumber: '5551234567',
      Password: 'correct-horse-42',
    });
  });
});

import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { details, renderAt, stubApi, token } from '../../../testing/render.tsx';
import { OtpScreen } from './otp-screen.tsx';
import { CodeRequestForm } from './code-request-form.tsx';

const renderOtp = (purpose: string) => renderAt(`/otp?phone=5551234567&purpose=${purpose}`, '/otp', <OtpScreen />);

describe('otp', () => {
  afterEach(() => vi.useRealTimers());

  it('verifies the code with grant_type=otp and follows completeSignIn', async () => {
    const calls = stubApi({
      'POST /token': () => [200, token('otp')],
      'GET /api/Account/Details': () => [200, details({ VehicleCount: 2 })],
    });
    renderOtp('register');
    expect(screen.getByRole('heading', { name: 'Verify your mobile number' })).toBeTruthy();
    expect(screen.getByText(/•••• 4567/)).toBeTruthy();
    await userEvent.type(screen.getByLabelText('Verification code'), '12a3456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('/homepage')).toBeTruthy();
    expect(calls[0]?.body).toEqual({ grant_type: 'otp', phone: '5551234567', code: '123456' });
    expect(localStorage.getItem('is_vehicle')).toBe('true');
  });

  it('shows a wrong code beside the field', async () => {
    stubApi({
      'POST /token': () => [
        400,
        {
          message: 'The code is wrong or has expired',
          errors: [{ field: 'code', message: 'The code is wrong or has expired' }],
        },
      ],
    });
    renderOtp('login');
    await userEvent.type(screen.getByLabelText('Verification code'), '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The code is wrong or has expired')).toBeTruthy();
  });

  it('after "Forgot password?" goes to /resetpassword without asking for a second code', async () => {
    stubApi({ 'POST /token': () => [200, token('otp')], 'GET /api/Account/Details': () => [200, details()] });
    renderOtp('forgot');
    await userEvent.type(screen.getByLabelText('Verification code'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('/resetpassword{"codeless":true}')).toBeTruthy();
  });

  it('offers a resend only after 30 seconds', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const calls = stubApi({ 'POST /api/Account/SendOtp': () => [202, { message: 'sent', PhoneNumber: '******4567' }] });
    renderOtp('login');
    const waiting = screen.getByRole('button', { name: 'Resend code in 30 s' });
    expect((waiting as HTMLButtonElement).disabled).toBe(true);
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    const resend = screen.getByRole('button', { name: 'Resend code' });
    expect((resend as HTMLButtonElement).disabled).toBe(false);
    await userEvent.click(resend);
    expect(await screen.findByRole('button', { name: 'Resend code in 30 s' })).toBeTruthy();
    expect(calls).toHaveLength(1);
  });

  it("a refused resend (429) says why and when, and counts down the server's time instead of 30 s", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    stubApi({
      'POST /api/Account/SendOtp': () => [
        429,
        { message: 'Too many attempts. Please try again later.' },
        { 'retry-after': '240' },
      ],
    });
    renderOtp('login');
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    await userEvent.click(screen.getByRole('button', { name: 'Resend code' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Too many attempts. Please try again later. Try again in 4 min.',
    );
    expect(screen.queryByText('A new code is on its way.')).toBeNull();
    const waiting = screen.getByRole('button', { name: 'Resend code in 240 s' });
    expect((waiting as HTMLButtonElement).disabled).toBe(true);
  });

  it('opened after a "too soon" refusal, waits the server\'s remaining seconds', async () => {
    stubApi({
      'POST /api/Account/SendOtp': () => [
        429,
        { message: 'Please wait before asking for another code' },
        { 'retry-after': '12' },
      ],
    });
    renderAt('/login', '/login', <CodeRequestForm purpose="login" />);
    await userEvent.type(screen.getByLabelText('Mobile Number'), '5551234567');
    await userEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('/otp?phone=5551234567&purpose=login{"wait":12}')).toBeTruthy();
  });
});

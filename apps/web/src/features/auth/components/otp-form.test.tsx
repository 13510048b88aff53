import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { details, renderAt, stubApi, token } from '../../../testing/render.tsx';
import { OtpScreen } from './otp-screen.tsx';

const renderOtp = (purpose: string) => renderAt(`/otp?phone=5551234567&purpose=${purpose}`, '/otp', <OtpScreen />);

describe('otp', () => {
  afterEach(() => vi.useRealTimers());

  it('verifies the code with grant_type=otp and follows completeSignIn', async () => {
    const calls = stubApi({ 'POST /token': () => [200, token('otp')], 'GET /api/Account/Details': () => [200, details({ VehicleCount: 2 })] });
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
    stubApi({ 'POST /token': () => [400, { message: 'The code is wrong or has expired', errors: [{ field: 'code', message: 'The code is wrong or has expired' }] }] });
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
});

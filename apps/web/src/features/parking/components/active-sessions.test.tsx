import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import type { ParkingSession, ReminderSettings } from '@parkit/contract';
import { renderWithData, stubApi } from '../../../testing/render.tsx';
import { ActiveSessions, ParkingReminderBanner } from './active-sessions.tsx';

const MIN = 60_000;

function session(endsInMinutes: number): ParkingSession {
  const now = Date.now();
  return {
    SessionId: 41,
    ZoneId: 7,
    ZoneNumber: '1001',
    Address: 'Congress Ave 100 block',
    City: 'Austin',
    State: 'TX',
    Latitude: 30.26,
    Longitude: -97.74,
    VehicleId: 3,
    VehicleMake: 'TOYOTA',
    VehicleModel: 'CAMRY',
    PlateNumber: 'abc123',
    PlateState: 'TX',
    StartedAt: new Date(now - 5 * MIN).toISOString(),
    EndsAt: new Date(now + endsInMinutes * MIN).toISOString(),
    EndedAt: null,
    DurationMinutes: endsInMinutes + 5,
    MaxStayMinutes: 120,
    AmountPaid: 1,
    ParkingAmount: 0.75,
    FeeAmount: 0.25,
    RefundedAmount: 0,
    PaidVia: 'Wallet',
    PaymentStatus: 'Paid',
    AutoSessionUsed: false,
    AutoExtendedUsed: false,
    Status: 'Active',
    AmendableUntil: new Date(now).toISOString(),
    ServerTime: new Date(now).toISOString(),
  };
}

/** The member's reminder minutes, and one session ending in `endsIn` minutes. */
function answer(minutes: ReminderSettings['ReminderMinutes'], endsIn: number) {
  return stubApi({
    'GET /api/Parking/Active': () => [200, { Sessions: [session(endsIn)], ServerTime: new Date().toISOString() }],
    'GET /api/Account/Reminders': () => [200, { ReminderMinutes: minutes, PushReminders: false, SmsReminders: true }],
  });
}

const banner = () => screen.queryByRole('status');

afterEach(() => vi.unstubAllGlobals());

describe('the in-app reminder banner', () => {
  it('shows from the member’s chosen 30 minutes before the end, not from a fixed 10', async () => {
    const calls = answer(30, 25);
    renderWithData(
      <MemoryRouter>
        <ParkingReminderBanner enabled />
      </MemoryRouter>,
    );
    expect(await screen.findByRole('status')).toHaveProperty(
      'textContent',
      'Your parking in zone 1001 ends in 25 minutes.',
    );
    expect(calls.map((c) => c.path)).toContain('/api/Account/Reminders');
  });

  it('waits for the chosen 15 minutes: 25 minutes left is not yet a reminder', async () => {
    const calls = answer(15, 25);
    renderWithData(
      <MemoryRouter>
        <ParkingReminderBanner enabled />
      </MemoryRouter>,
    );
    await vi.waitFor(() => expect(calls.map((c) => c.path)).toContain('/api/Account/Reminders'));
    await vi.waitFor(() => expect(calls.map((c) => c.path)).toContain('/api/Parking/Active'));
    expect(banner()).toBeNull();
  });

  it('asks a guest (no account) nothing', () => {
    const calls = answer(30, 5);
    renderWithData(
      <MemoryRouter>
        <ParkingReminderBanner enabled={false} />
      </MemoryRouter>,
    );
    expect(calls).toEqual([]);
    expect(banner()).toBeNull();
  });

  it('the home screen’s countdown turns amber from the chosen minutes', async () => {
    answer(30, 25);
    renderWithData(
      <MemoryRouter>
        <ActiveSessions />
      </MemoryRouter>,
    );
    const link = await screen.findByRole('link', { name: /^Zone 1001, ABC123:/ });
    await vi.waitFor(() => expect(link.querySelector('.text-amber-700')).not.toBeNull());
  });
});

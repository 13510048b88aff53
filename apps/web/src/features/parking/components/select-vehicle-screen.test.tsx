import { describe, expect, it } from 'vitest';
import { PARKING_MESSAGES } from '@parkit/contract';
import { ApiError } from '../../../lib/api-client.ts';
import { busySessionId } from './select-vehicle-screen.tsx';

const busy = (body: ApiError['body'], status = 409) => new ApiError(status, body, PARKING_MESSAGES.vehicleBusy);

describe('busySessionId', () => {
  it('reads the running session from the 409 as data', () => {
    expect(busySessionId(busy({ message: PARKING_MESSAGES.vehicleBusy, SessionId: 12 }))).toBe(12);
  });

  it('does not read it out of the text', () => {
    const text = `${PARKING_MESSAGES.vehicleBusy} (session 12)`;
    expect(
      busySessionId(busy({ message: PARKING_MESSAGES.vehicleBusy, errors: [{ field: 'VehicleId', message: text }] })),
    ).toBeNull();
  });

  it('is nothing for another status or error', () => {
    expect(busySessionId(busy({ message: 'x', SessionId: 12 }, 402))).toBeNull();
    expect(busySessionId(new Error('x'))).toBeNull();
    expect(busySessionId(null)).toBeNull();
  });
});

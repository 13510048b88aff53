import { describe, expect, it } from 'vitest';
import { clockOffset, deviceEnd, durationChoices, formatCountdown } from './session-time.ts';

describe('session time', () => {
  it('counts down on the server clock, whatever the device clock says', () => {
    // The device is 2 minutes slow: it read the server's 12:00:00 at its own 11:58:00.
    const offset = clockOffset('2026-01-01T12:00:00.000Z', Date.parse('2026-01-01T11:58:00.000Z'));
    expect(offset).toBe(120_000);
    // A session ending at server 12:30:00 ends at device 12:28:00: at device 11:59:00 (server
    // 12:01:00) it has 29 minutes left (useCountdown counts to the device's end).
    expect(deviceEnd('2026-01-01T12:30:00.000Z', offset)).toBe(Date.parse('2026-01-01T12:28:00.000Z'));
    expect(deviceEnd('2026-01-01T12:30:00.000Z', offset)! - Date.parse('2026-01-01T11:59:00.000Z')).toBe(29 * 60_000);
    expect(deviceEnd('garbage', 0)).toBeNull();
    expect(deviceEnd(null, 0)).toBeNull();
    expect(clockOffset('garbage', 5)).toBe(0);
  });

  it('formats the time left', () => {
    expect(formatCountdown(5025)).toBe('1:23:45');
    expect(formatCountdown(125)).toBe('2:05');
    expect(formatCountdown(0)).toBe('0:00');
    expect(formatCountdown(3600)).toBe('1:00:00');
  });

  it('offers the zone steps up to the maximum stay', () => {
    expect(durationChoices(60)).toEqual([15, 30, 45, 60]);
    expect(durationChoices(50)).toEqual([15, 30, 45, 50]);
    expect(durationChoices(10)).toEqual([10]);
    expect(durationChoices(0)).toEqual([]);
  });
});

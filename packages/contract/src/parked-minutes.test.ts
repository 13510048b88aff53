import { describe, expect, it } from 'vitest';
import { parkedMinutes } from './index.ts';

const at = (seconds: number) => new Date(Date.UTC(2026, 0, 5, 9, 0, seconds)).toISOString();

describe('parkedMinutes: one rule for a parked duration', () => {
  it('counts every minute begun: 61 seconds are 2 minutes, 60 seconds are 1', () => {
    expect(parkedMinutes({ StartedAt: at(0), EndedAt: at(61), DurationMinutes: 60 })).toBe(2);
    expect(parkedMinutes({ StartedAt: at(0), EndedAt: at(60), DurationMinutes: 60 })).toBe(1);
    expect(parkedMinutes({ StartedAt: at(0), EndedAt: at(119), DurationMinutes: 60 })).toBe(2);
    expect(parkedMinutes({ StartedAt: at(0), EndedAt: at(121), DurationMinutes: 60 })).toBe(3);
  });
  it('keeps at least the first minute, and never more than were bought', () => {
    expect(parkedMinutes({ StartedAt: at(0), EndedAt: at(0), DurationMinutes: 30 })).toBe(1);
    expect(parkedMinutes({ StartedAt: at(0), EndedAt: at(1), DurationMinutes: 30 })).toBe(1);
    expect(parkedMinutes({ StartedAt: at(0), EndedAt: at(45 * 60), DurationMinutes: 30 })).toBe(30);
  });
  it('is the minutes bought while the session runs', () => {
    expect(parkedMinutes({ StartedAt: at(0), EndedAt: null, DurationMinutes: 90 })).toBe(90);
  });
  it('takes dates as well as the wire’s strings', () => {
    expect(parkedMinutes({ StartedAt: new Date(at(0)), EndedAt: new Date(at(61)), DurationMinutes: 60 })).toBe(2);
  });
});

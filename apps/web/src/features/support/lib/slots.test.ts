import { describe, expect, it } from 'vitest';
import { addDays, slotLabel, slotsFor, zonedNow } from './slots.ts';

const hours = { Open: '09:00', Close: '18:00', TimeZone: 'America/Chicago', SlotMinutes: 30, MaxDays: 30 };

describe('call-back slots', () => {
  it('offers every slot within support hours on a later day', () => {
    const now = new Date('2026-07-15T15:10:00Z');
    const slots = slotsFor('2026-07-16', hours, now);
    expect(slots[0]).toBe('09:00');
    expect(slots.at(-1)).toBe('17:30');
    expect(slots).toHaveLength(18);
  });

  it('offers only future slots today, in the support time zone', () => {
    const now = new Date('2026-07-15T15:10:00Z'); // 10:10 in Chicago
    expect(zonedNow('America/Chicago', now)).toEqual({ date: '2026-07-15', time: '10:10' });
    expect(slotsFor('2026-07-15', hours, now)[0]).toBe('10:30');
  });

  it('labels slots as hh:mm A and adds days across months', () => {
    expect(slotLabel('09:00')).toBe('09:00 AM');
    expect(slotLabel('12:30')).toBe('12:30 PM');
    expect(slotLabel('17:30')).toBe('05:30 PM');
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
  });
});

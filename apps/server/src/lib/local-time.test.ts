import { describe, expect, it } from 'vitest';
import { formatLocal } from './local-time.ts';

describe('formatLocal', () => {
  it('writes DD MMM YYYY, hh:mm A in the given time zone', () => {
    const t = new Date('2024-09-12T19:05:00Z');
    expect(formatLocal(t, 'America/Chicago')).toBe('12 Sep 2024, 02:05 PM');
    expect(formatLocal(t, 'UTC')).toBe('12 Sep 2024, 07:05 PM');
    expect(formatLocal(new Date('2024-01-01T05:30:00Z'), 'America/Chicago')).toBe('31 Dec 2023, 11:30 PM');
  });
});

import { describe, expect, it } from 'vitest';
import {
  AddVehicleRequest,
  amountToCents,
  centsToAmount,
  formatDate,
  formatMoney,
  GuestStartRequest,
  MESSAGES,
  MIN_VEHICLE_YEAR,
  maxVehicleYear,
  SPEC_MESSAGES,
  TokenRequest,
  UpdateAccountRequest,
  WireId,
} from './index.ts';

// The edges a mutation run found untested: each line would pass with the rule broken.

const firstMessage = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.success ? null : r.error!.issues[0]!.message;

describe('money edges', () => {
  it('formatMoney: empty, null and undefined are 0.00; thousands separators in a string are read', () => {
    for (const v of [null, undefined, '']) expect(formatMoney(v)).toBe('0.00');
    expect(formatMoney('1,234.5')).toBe('1,234.50');
    expect(formatMoney('abc')).toBe('0.00');
    expect(formatMoney({})).toBe('0.00');
    expect(formatMoney(-3.456)).toBe('-3.46');
  });
  it('amountToCents: a bare number, a trailing dot, padded zeros; centsToAmount refuses a fraction of a cent', () => {
    expect(amountToCents(12)).toBe(1200);
    expect(amountToCents('12.')).toBe(1200);
    expect(amountToCents(' 7.5 ')).toBe(750);
    expect(amountToCents('0.100')).toBe(10);
    expect(amountToCents(Number.POSITIVE_INFINITY)).toBeNull();
    expect(amountToCents(0.1 + 0.2)).toBe(30); // a float's noise past ten places is not a third decimal
    expect(() => centsToAmount(1.5)).toThrow('cents must be a safe integer, got 1.5');
  });
});

describe('date edges', () => {
  it('formatDate: padding, the zero date, a day with text around it, numbers as instants', () => {
    expect(formatDate(' 2024-01-05 ')).toBe('05-Jan-2024');
    expect(formatDate(' 2024-02-30 ')).toBe('NA'); // padded, still a day that does not exist (not 1 Mar)
    expect(formatDate('0000-00-00 00:00:00')).toBe('NA');
    expect(formatDate('')).toBe('NA');
    expect(formatDate(true)).toBe('NA');
    expect(formatDate('x2024-01-05')).toBe('NA');
    expect(formatDate(Date.UTC(2024, 0, 5, 12))).toBe('05-Jan-2024');
    expect(formatDate('2024-01-05T12:00:00Z')).toBe('05-Jan-2024'); // an instant, not the day rule
  });
});

describe('vehicle edges', () => {
  const vehicle = {
    PlateNumber: 'MH 12 AB 1234',
    PlateState: 'tx',
    VehicleMake: 'Honda',
    VehicleModel: 'Civic',
    VehicleColor: 'Blue',
    VehicleYear: '2020',
  };
  it('the year: from 1900 to next year, four digits exactly', () => {
    const year = (VehicleYear: unknown) => firstMessage(AddVehicleRequest.safeParse({ ...vehicle, VehicleYear }));
    expect(year(String(MIN_VEHICLE_YEAR))).toBeNull();
    expect(year(String(maxVehicleYear()))).toBeNull();
    expect(year(String(MIN_VEHICLE_YEAR - 1))).not.toBeNull();
    expect(year(String(maxVehicleYear() + 1))).not.toBeNull();
    // A number that reads as a year in range is still not four digits.
    for (const y of ['02020', '+2020', '2020.0', '2020e0'])
      expect(year(y), y).toBe('Year must be from 1900 to next year');
    expect(year('20201')).not.toBeNull();
    expect(year('x2020')).not.toBeNull();
    expect(year('2020x')).not.toBeNull();
    expect(maxVehicleYear(new Date(2030, 5, 1))).toBe(2031);
  });
  it('the plate keeps one space for a run of spaces', () => {
    const r = AddVehicleRequest.safeParse({ ...vehicle, PlateNumber: 'mh  12   ab 1234' });
    expect(r.success && r.data.PlateNumber).toBe('MH 12 AB 1234');
  });
  it('an id is a number or digits, trimmed; anything else says Must be a number', () => {
    expect(WireId.parse(' 42 ')).toBe(42);
    expect(firstMessage(WireId.safeParse('4a'))).toBe('Must be a number');
  });
});

describe('the token POST (docs/product.md#api-calls)', () => {
  it('a password grant names its missing fields with the spec messages', () => {
    expect(firstMessage(TokenRequest.safeParse({ grant_type: 'password', password: 'secret123' }))).toBe(
      SPEC_MESSAGES.usernameRequired,
    );
    expect(
      firstMessage(TokenRequest.safeParse({ grant_type: 'password', username: '  ', password: 'secret123' })),
    ).toBe(SPEC_MESSAGES.usernameRequired);
    expect(firstMessage(TokenRequest.safeParse({ grant_type: 'password', username: 'riley' }))).toBe(
      MESSAGES.passwordRequired,
    );
    expect(TokenRequest.parse({ grant_type: 'password', username: ' riley ', password: 'secret123' })).toEqual({
      grant_type: 'password',
      username: 'riley',
      password: 'secret123',
    });
  });
  it('an otp grant needs the phone and the code; a refresh grant needs nothing more', () => {
    expect(TokenRequest.safeParse({ grant_type: 'otp', phone: '5551234567' }).success).toBe(false);
    expect(TokenRequest.safeParse({ grant_type: 'otp', phone: '5551234567', code: '123456' }).success).toBe(true);
    expect(TokenRequest.parse({ grant_type: 'refresh_token' })).toEqual({ grant_type: 'refresh_token' });
    expect(firstMessage(TokenRequest.safeParse({ grant_type: 'magic' }))).toBe(
      'grant_type must be password, otp or refresh_token',
    );
  });
});

describe('other field rules', () => {
  const profile = {
    ID: 7,
    EmailAddress: 'riley@example.test',
    PhoneNumber: '5551234567',
    UserName: 'riley',
    AddressLine1: '1 Main St',
    City: 'Austin',
    State: 'TX',
    ZipCode: '78701',
  };
  it('text fields refuse control characters; MinBalance must be an amount', () => {
    const msg = (over: object) => firstMessage(UpdateAccountRequest.safeParse({ ...profile, ...over }));
    expect(msg({ City: 'Aus\u0007tin' })).toBe('Contains characters that are not allowed');
    expect(msg({ AddressLine2: 'Suite\u00002' })).toBe('Contains characters that are not allowed');
    expect(msg({ MinBalance: '1.234' })).toBe('MinBalance must be an amount');
    expect(msg({ MinBalance: '' })).toBeNull();
  });
  it('a Quick Park start names its quote by a UUID', () => {
    const start = (QuoteId: string) => GuestStartRequest.safeParse({ QuoteId, CardToken: 'tok_visa' }).success;
    expect(start(' 3f2504e0-4f89-41d3-9a0c-0305e82c3301 ')).toBe(true);
    expect(start('quote-1')).toBe(false);
  });
});

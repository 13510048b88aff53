import { describe, expect, it } from 'vitest';
import {
  AmendQuoteRequest,
  AmendRequest,
  AutoStartQuoteRequest,
  GuestExtendQuoteRequest,
  GuestExtendRequest,
  GuestQuoteRequest,
  GuestStartRequest,
  ParkingSession,
  PARKING_MESSAGES as P,
  QUICK_PARK_MESSAGES as Q,
  QuoteRequest,
  SessionParams,
  StartRequest,
  StopRequest,
  StopResponse,
  VEHICLE_MESSAGES as V,
} from './index.ts';
import { messages, expectMessages, UUID } from './test-messages.ts';

// The park-and-pay and Quick Park request schemas with the messages the API sends.

describe('the quote (POST /api/Parking/Quote)', () => {
  it('a new session: ZoneId, VehicleId and a duration', () => {
    expect(QuoteRequest.parse({ ZoneId: 1, VehicleId: 2, DurationMinutes: 60 })).toEqual({
      ZoneId: 1,
      VehicleId: 2,
      DurationMinutes: 60,
    });
  });
  it('an extension: SessionId alone with the duration', () => {
    expect(QuoteRequest.parse({ SessionId: 3, DurationMinutes: 15 })).toEqual({ SessionId: 3, DurationMinutes: 15 });
  });
  it('anything else says what to send', () => {
    for (const v of [
      { ZoneId: 1 },
      { VehicleId: 2 },
      {},
      { SessionId: 3, ZoneId: 1 },
      { SessionId: 3, VehicleId: 2 },
      { SessionId: 3, ZoneId: 1, VehicleId: 2 },
    ]) {
      expect(messages(QuoteRequest, { ...v, DurationMinutes: 60 }), JSON.stringify(v)).toEqual({
        SessionId: P.quoteTarget,
      });
    }
  });
  it('the duration: a whole number of minutes from 1 to 1440', () => {
    const at = (DurationMinutes: unknown) => messages(QuoteRequest, { SessionId: 3, DurationMinutes });
    expect(at(undefined)).toEqual({ DurationMinutes: 'DurationMinutes is required' });
    expect(at('60')).toEqual({ DurationMinutes: P.durationRequired });
    for (const bad of [0, -15, 1441, 15.5])
      expect(at(bad), String(bad)).toEqual({
        DurationMinutes: 'DurationMinutes must be a whole number from 1 to 1440',
      });
    expect(at(1)).toEqual({});
    expect(at(1440)).toEqual({});
  });
  it('ids in a JSON body are positive whole numbers, never text', () => {
    const at = (SessionId: unknown) => messages(QuoteRequest, { SessionId, DurationMinutes: 60 });
    expect(at('3')).toEqual({ SessionId: 'Must be a number' });
    expect(at(1.5)).toEqual({ SessionId: 'Must be a whole number' });
    expect(at(0)).toEqual({ SessionId: 'Must be a positive number' });
    expect(at(-1)).toEqual({ SessionId: 'Must be a positive number' });
    expect(at(2_147_483_648)).toEqual({ SessionId: 'Too large' });
    expect(at(2_147_483_647)).toEqual({});
  });
  it('an unknown field is refused', () => {
    expect(QuoteRequest.safeParse({ SessionId: 3, DurationMinutes: 60, Price: 0 }).success).toBe(false);
  });
});

describe('start, stop, amend', () => {
  it('start names its quote by a UUID, trimmed; the over-max confirmation is optional', () => {
    expect(StartRequest.parse({ QuoteId: ` ${UUID} ` })).toEqual({ QuoteId: UUID });
    expect(StartRequest.parse({ QuoteId: UUID, ConfirmOverMax: true })).toEqual({
      QuoteId: UUID,
      ConfirmOverMax: true,
    });
    expect(messages(StartRequest, {})).toEqual({ QuoteId: 'QuoteId is required' });
    expect(messages(StartRequest, { QuoteId: 'abc' })).toEqual({ QuoteId: 'QuoteId is not valid' });
    expect(StartRequest.safeParse({ QuoteId: UUID, Extra: 1 }).success).toBe(false);
  });
  it('stop and the auto-start quote take one id', () => {
    expect(StopRequest.parse({ SessionId: 4 })).toEqual({ SessionId: 4 });
    expect(messages(StopRequest, {})).toEqual({ SessionId: 'Must be a number' });
    expect(AutoStartQuoteRequest.parse({ ZoneId: 4 })).toEqual({ ZoneId: 4 });
    expect(AutoStartQuoteRequest.safeParse({ ZoneId: 4, VehicleId: 1 }).success).toBe(false);
  });
  it('amend: a vehicle or a zone to correct', () => {
    expect(AmendRequest.parse({ SessionId: 1, VehicleId: 2 })).toEqual({ SessionId: 1, VehicleId: 2 });
    expect(AmendRequest.parse({ SessionId: 1, ZoneId: 3 })).toEqual({ SessionId: 1, ZoneId: 3 });
    expect(messages(AmendRequest, { SessionId: 1 })).toEqual({ VehicleId: 'Send VehicleId or ZoneId to correct' });
    expect(AmendQuoteRequest.parse({ SessionId: 1, ZoneId: 3 })).toEqual({ SessionId: 1, ZoneId: 3 });
    expect(messages(AmendQuoteRequest, { SessionId: 1 })).toEqual({ ZoneId: 'Must be a number' });
  });
  it('a session in the path is digits', () => {
    expect(SessionParams.parse({ id: '12' })).toEqual({ id: 12 });
    expect(SessionParams.safeParse({ id: 'x' }).success).toBe(false);
  });
});

describe('Quick Park', () => {
  const quote = { ZoneNumber: 'Z-101', PlateNumber: 'mh 12-ab', PlateState: 'TX', DurationMinutes: 60 };
  it('a quote: the zone number, the plate upper-cased, the state, the duration', () => {
    expect(messages(GuestQuoteRequest, { ...quote, PlateState: 'tx' })).toEqual({
      PlateState: 'Choose a state from the list',
    });
    expect(GuestQuoteRequest.parse({ ...quote, ZoneNumber: ' Z-101 ' })).toEqual({
      ZoneNumber: 'Z-101',
      PlateNumber: 'MH 12-AB',
      PlateState: 'TX',
      DurationMinutes: 60,
    });
  });
  it('says what is missing or wrong, field by field', () => {
    expectMessages(GuestQuoteRequest, [
      [{ ...quote, ZoneNumber: ' ' }, { ZoneNumber: Q.zoneNumberRequired }],
      [{ ...quote, ZoneNumber: undefined }, { ZoneNumber: 'Zone number is required' }],
      [{ ...quote, ZoneNumber: 'Z 1' }, { ZoneNumber: 'No zone has this number' }],
      [{ ...quote, ZoneNumber: 'Z'.repeat(21) }, { ZoneNumber: Q.zoneNotFound }],
      [{ ...quote, ZoneNumber: 'Z'.repeat(20) }, {}],
      [{ ...quote, PlateNumber: '' }, { PlateNumber: V.plateRequired }],
      [{ ...quote, PlateNumber: undefined }, { PlateNumber: V.plateRequired }],
      [{ ...quote, PlateNumber: 'A' }, { PlateNumber: V.plateFormat }],
      [{ ...quote, PlateNumber: 'ABCDEFGHIJK' }, { PlateNumber: V.plateFormat }],
      [{ ...quote, PlateNumber: 'AB#1' }, { PlateNumber: V.plateFormat }],
      [{ ...quote, PlateNumber: 'ABCDEFGHIJ' }, {}],
    ]);
    for (const d of [0, 1441, 1.5])
      expect(GuestQuoteRequest.safeParse({ ...quote, DurationMinutes: d }).success, String(d)).toBe(false);
    for (const d of [1, 1440])
      expect(GuestQuoteRequest.safeParse({ ...quote, DurationMinutes: d }).success, String(d)).toBe(true);
    expect(GuestQuoteRequest.safeParse({ ...quote, Extra: 1 }).success).toBe(false);
  });
  it('start: the quote and a card token', () => {
    expect(GuestStartRequest.parse({ QuoteId: UUID, CardToken: ' tok_1 ' })).toEqual({
      QuoteId: UUID,
      CardToken: 'tok_1',
    });
    expect(messages(GuestStartRequest, { QuoteId: UUID })).toEqual({ CardToken: 'Card is required' });
    expect(messages(GuestStartRequest, { QuoteId: UUID, CardToken: ' ' })).toEqual({ CardToken: Q.cardTokenRequired });
    expect(GuestStartRequest.safeParse({ QuoteId: UUID, CardToken: 'x'.repeat(2001) }).success).toBe(false);
    expect(GuestStartRequest.safeParse({ QuoteId: UUID, CardToken: 'x'.repeat(2000) }).success).toBe(true);
    expect(GuestStartRequest.safeParse({ QuoteId: 'nope', CardToken: 'x' }).success).toBe(false);
  });
  it('extend: a session of this phone and a duration, then the quote', () => {
    expect(GuestExtendQuoteRequest.parse({ SessionId: 1, DurationMinutes: 15 })).toEqual({
      SessionId: 1,
      DurationMinutes: 15,
    });
    for (const SessionId of [0, 1.5, 2_147_483_648])
      expect(GuestExtendQuoteRequest.safeParse({ SessionId, DurationMinutes: 15 }).success, String(SessionId)).toBe(
        false,
      );
    for (const DurationMinutes of [0, 1441, 2.5])
      expect(GuestExtendQuoteRequest.safeParse({ SessionId: 1, DurationMinutes }).success).toBe(false);
    expect(GuestExtendQuoteRequest.safeParse({ SessionId: 2_147_483_647, DurationMinutes: 1440 }).success).toBe(true);
    expect(GuestExtendRequest.parse({ QuoteId: ` ${UUID}` })).toEqual({ QuoteId: UUID });
    expect(GuestExtendRequest.safeParse({ QuoteId: 'x' }).success).toBe(false);
  });
});

describe('a parking session as every endpoint shows it', () => {
  const session = {
    SessionId: 1,
    ZoneId: 2,
    ZoneNumber: 'Z-101',
    Address: '1 Main St',
    City: 'Pune',
    State: 'MH',
    Latitude: 18.5,
    Longitude: 73.8,
    VehicleId: null,
    VehicleMake: 'TOYOTA',
    VehicleModel: 'CAMRY',
    PlateNumber: 'MH 12 AB 1234',
    PlateState: 'MH',
    StartedAt: '2026-11-23T10:00:00.000Z',
    EndsAt: '2026-11-23T11:00:00.000Z',
    EndedAt: null,
    DurationMinutes: 60,
    MaxStayMinutes: 120,
    AmountPaid: 2.5,
    ParkingAmount: 2,
    FeeAmount: 0.5,
    RefundedAmount: 0,
    PaidVia: 'wallet',
    PaymentStatus: 'paid',
    AutoSessionUsed: false,
    AutoExtendedUsed: false,
    Status: 'Active',
    AmendableUntil: '2026-11-23T10:05:00.000Z',
    ServerTime: '2026-11-23T10:01:00.000Z',
  };
  it('keeps every field, and requires each', () => {
    expect(ParkingSession.parse(session)).toEqual(session);
    const { SessionId: _s, ...noId } = session;
    expect(ParkingSession.safeParse(noId).success).toBe(false);
    expect(ParkingSession.safeParse({ ...session, Status: 'Paused' }).success).toBe(false);
    expect(StopResponse.parse({ ...session, Status: 'Ended', RefundAmount: 1, UnusedMinutes: 30 })).toMatchObject({
      SessionId: 1,
      RefundAmount: 1,
      UnusedMinutes: 30,
    });
  });
});

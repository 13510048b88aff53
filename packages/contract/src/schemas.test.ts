import { describe, expect, it } from 'vitest';
import {
  AddVehicleRequest,
  acceptsDigitKey,
  DeleteVehicleRequest,
  EmailAddress,
  MESSAGES,
  OtpCode,
  PhoneNumber,
  plateKey,
  RegisterRequest,
  ResetPasswordRequest,
  SPEC_MESSAGES,
  TokenRequest,
  UpdateAccountRequest,
  UpdateParkingOptionsRequest,
  VEHICLE_MESSAGES as V,
} from './index.ts';
import { messages, expectMessages } from './test-messages.ts';

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

const vehicle = {
  VehicleMake: 'TOYOTA',
  VehicleModel: 'CAMRY',
  PlateNumber: 'ABC 123',
  PlateState: 'TX',
  VehicleColor: 'SILVER',
  VehicleYear: '2021',
};

describe('Edit Profile (docs/product.md#validation): the spec messages, letter for letter', () => {
  it('names every missing field with its message', () => {
    const empty = {
      UserName: '',
      EmailAddress: '',
      PhoneNumber: '',
      AddressLine1: '',
      City: '',
      State: '',
      ZipCode: '',
    };
    expect(messages(UpdateAccountRequest, empty)).toEqual({
      UserName: 'Username is Required',
      EmailAddress: 'Email is required',
      PhoneNumber: 'PhoneNumber is Required',
      AddressLine1: 'AddressLine1 is Required',
      City: 'City is Required',
      State: 'State is Required',
      ZipCode: 'ZipCode is Required',
    });
  });

  it('counts blank text as missing, and a missing key too', () => {
    expect(messages(UpdateAccountRequest, { ...profile, City: '   ' })).toEqual({ City: SPEC_MESSAGES.cityRequired });
    const { AddressLine1: _drop, ...rest } = profile;
    expect(messages(UpdateAccountRequest, rest)).toEqual({ AddressLine1: SPEC_MESSAGES.addressRequired });
  });

  it("checks the email with a simple pattern: 'Please enter a valid email address'", () => {
    for (const bad of ['riley', 'riley@', '@example.test', 'ri ley@example.test', 'riley@example']) {
      expect(messages(EmailAddress, bad)).toEqual({ '(root)': SPEC_MESSAGES.emailInvalid });
    }
    expect(EmailAddress.parse('  riley@example.test ')).toBe('riley@example.test');
  });

  it('accepts a whole profile and trims it', () => {
    const r = UpdateAccountRequest.parse({ ...profile, City: ' Austin ', MinBalance: '' });
    expect(r.City).toBe('Austin');
    expectMessages(UpdateAccountRequest, [
      [{ ...profile, ZipCode: '7870' }, { ZipCode: MESSAGES.zipFormat }],
      [{ ...profile, State: 'Texas' }, { State: MESSAGES.stateUnknown }],
      [{ ...profile, MinBalance: 'ten' }, { MinBalance: 'MinBalance must be an amount' }],
    ]);
  });
});

describe('Vehicle (docs/product.md#validation)', () => {
  it('names every missing field with the spec message', () => {
    const empty = {
      VehicleMake: '',
      VehicleModel: '',
      PlateNumber: '',
      PlateState: '',
      VehicleColor: '',
      VehicleYear: '',
    };
    expect(messages(AddVehicleRequest, empty)).toEqual({
      VehicleMake: 'VehicleMake is Required',
      VehicleModel: 'Vehicle Model is Required',
      PlateNumber: 'Plate Number is Required',
      PlateState: 'State is Required',
      VehicleColor: 'Vehicle Color is Required',
      VehicleYear: 'Please Select Year',
    });
  });

  it('counts letters and digits of a plate (2 to 10), keeping spaces and dashes as typed', () => {
    expect(AddVehicleRequest.parse({ ...vehicle, PlateNumber: ' mh 12 ab 1234 ' }).PlateNumber).toBe('MH 12 AB 1234');
    expect(AddVehicleRequest.parse({ ...vehicle, PlateNumber: 'ab-12' }).PlateNumber).toBe('AB-12');
    expect(AddVehicleRequest.parse({ ...vehicle, PlateNumber: 'A1' }).PlateNumber).toBe('A1');
    for (const bad of ['A', 'A -', 'MH 12 AB 12345', 'AB_12', 'AB.12', 'A-B-C-D-E-F-G-H-I-J-K', '-'.repeat(21)]) {
      expect(messages(AddVehicleRequest, { ...vehicle, PlateNumber: bad }), bad).toEqual({
        PlateNumber: V.plateFormat,
      });
    }
  });

  it('compares plates without spaces and dashes', () => {
    expect(plateKey('MH 12-AB 1234')).toBe('MH12AB1234');
    expect(plateKey('mh12ab1234')).toBe(plateKey('MH-12-AB-1234'));
    expect(plateKey('AB 12')).not.toBe(plateKey('AB 13'));
  });

  it('takes the year as yyyy from 1900 to next year, as a string or a number', () => {
    expect(AddVehicleRequest.parse({ ...vehicle, VehicleYear: 1999 }).VehicleYear).toBe('1999');
    expectMessages(AddVehicleRequest, [
      [{ ...vehicle, VehicleYear: '1899' }, { VehicleYear: V.yearRange }],
      [{ ...vehicle, VehicleYear: String(new Date().getFullYear() + 2) }, { VehicleYear: V.yearRange }],
      [{ ...vehicle, VehicleYear: '21' }, { VehicleYear: V.yearRange }],
    ]);
  });

  it('upper-cases a two-letter state and refuses anything else', () => {
    expect(AddVehicleRequest.parse({ ...vehicle, PlateState: 'tx' }).PlateState).toBe('TX');
    expect(messages(AddVehicleRequest, { ...vehicle, PlateState: 'Texas' })).toEqual({
      PlateState: MESSAGES.stateUnknown,
    });
  });

  it('takes a vehicle id as a positive whole number', () => {
    expect(DeleteVehicleRequest.parse({ VehicleId: '12' }).VehicleId).toBe(12);
    for (const bad of [0, -1, 1.5, 'x', 2 ** 31])
      expect(DeleteVehicleRequest.safeParse({ VehicleId: bad }).success, String(bad)).toBe(false);
  });
});

describe('Sign-up and sign-in', () => {
  it('registers with every field named', () => {
    const empty = { FirstName: '', LastName: '', UserName: '', EmailAddress: '', PhoneNumber: '', Password: '' };
    expect(messages(RegisterRequest, empty)).toEqual({
      FirstName: MESSAGES.firstNameRequired,
      LastName: MESSAGES.lastNameRequired,
      UserName: SPEC_MESSAGES.usernameRequired,
      EmailAddress: SPEC_MESSAGES.emailRequired,
      PhoneNumber: SPEC_MESSAGES.phoneRequired,
      Password: MESSAGES.passwordRequired,
    });
    expect(
      messages(RegisterRequest, {
        ...empty,
        FirstName: 'A',
        LastName: 'B',
        UserName: 'a b',
        EmailAddress: 'a@b.co',
        PhoneNumber: '123',
        Password: 'short',
      }),
    ).toEqual({
      UserName: MESSAGES.usernameFormat,
      PhoneNumber: MESSAGES.phoneFormat,
      Password: MESSAGES.passwordLength,
    });
  });

  it('takes a phone of 10 to 15 digits and a code of 6', () => {
    expect(PhoneNumber.safeParse('5551234567').success).toBe(true);
    expect(PhoneNumber.safeParse('555123456789012').success).toBe(true);
    for (const bad of ['555123456', '5551234567890123', '555-123-4567'])
      expect(messages(PhoneNumber, bad)).toEqual({ '(root)': MESSAGES.phoneFormat });
    expect(messages(OtpCode, '')).toEqual({ '(root)': MESSAGES.codeRequired });
    for (const bad of ['12345', '1234567', '12a456'])
      expect(messages(OtpCode, bad)).toEqual({ '(root)': MESSAGES.codeFormat });
  });

  it('tells the token grants apart', () => {
    expect(TokenRequest.parse({ grant_type: 'password', username: ' riley ', password: 'x' })).toEqual({
      grant_type: 'password',
      username: 'riley',
      password: 'x',
    });
    expect(TokenRequest.safeParse({ grant_type: 'otp', phone: '5551234567', code: '123456' }).success).toBe(true);
    expect(TokenRequest.safeParse({ grant_type: 'refresh_token' }).success).toBe(true);
    expect(messages(TokenRequest, { grant_type: 'client_credentials' })).toEqual({
      grant_type: 'grant_type must be password, otp or refresh_token',
    });
    expect(messages(TokenRequest, { grant_type: 'password', username: '', password: '' })).toEqual({
      username: SPEC_MESSAGES.usernameRequired,
      password: MESSAGES.passwordRequired,
    });
  });

  it('resets a password with or without a code', () => {
    expect(ResetPasswordRequest.safeParse({ NewPassword: 'long enough' }).success).toBe(true);
    expect(messages(ResetPasswordRequest, { Code: '1', NewPassword: 'long enough' })).toEqual({
      Code: MESSAGES.codeFormat,
    });
  });
});

describe('Default Parking Options', () => {
  it('takes one switch at a time, and an amount from 1.00 to 500.00 with two decimals', () => {
    expect(UpdateParkingOptionsRequest.safeParse({ AutoStartParking: true }).success).toBe(true);
    expect(messages(UpdateParkingOptionsRequest, {})).toEqual({ '(root)': 'Nothing to update' });
    expect(UpdateParkingOptionsRequest.safeParse({ MaxPaymentAmount: 1 }).success).toBe(true);
    expect(UpdateParkingOptionsRequest.safeParse({ MaxPaymentAmount: 500 }).success).toBe(true);
    expectMessages(UpdateParkingOptionsRequest, [
      [{ MaxPaymentAmount: 0.99 }, { MaxPaymentAmount: 'MaxPaymentAmount must be from 1.00 to 500.00' }],
      [{ MaxPaymentAmount: 500.01 }, { MaxPaymentAmount: 'MaxPaymentAmount must be from 1.00 to 500.00' }],
      [{ MaxPaymentAmount: 12.345 }, { MaxPaymentAmount: 'MaxPaymentAmount has at most two decimals' }],
      [{ AutoStartParking: 'yes' }, { AutoStartParking: 'AutoStartParking must be true or false' }],
    ]);
  });
});

describe('digit-only fields (docs/product.md#validation and #formats-and-limits)', () => {
  it('take digit keys only, and none once the field holds more than 11 characters', () => {
    expect(acceptsDigitKey('', '5')).toBe(true);
    expect(acceptsDigitKey('', 'a')).toBe(false);
    expect(acceptsDigitKey('12345678901', '2')).toBe(true); // 11 characters: not more than 11
    expect(acceptsDigitKey('123456789012', '3')).toBe(false);
    expect(acceptsDigitKey('123456789012', 'Backspace')).toBe(true);
  });
});

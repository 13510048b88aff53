import { z } from 'zod';
import { ZoneInput, type OperatorZone, type ZoneCurb } from '@parkit/contract';

/**
 * The zone editor's form: its values as typed, the contract's schema that reads them, a blank zone
 * and a saved zone's values (zone-editor.tsx).
 */

/** The form's values as typed: numbers are text until the contract's schema reads them. */
export interface ZoneFormValues {
  ZoneNumber: string;
  Name: string;
  Address: string;
  City: string;
  State: string;
  Zip: string;
  Latitude: string;
  Longitude: string;
  Kind: string;
  Capacity: string;
  RatePerHour: string;
  MaxStayMinutes: string;
  PaidDays: string[];
  PaidFrom: string;
  PaidUntil: string;
  Curb: ZoneCurb | null;
}
export type CheckedZone = z.output<typeof ZoneInput>;

const NUMBERS = ['Latitude', 'Longitude', 'Capacity', 'RatePerHour', 'MaxStayMinutes'] as const;
export const FIELDS = [
  'ZoneNumber',
  'Name',
  'Address',
  'City',
  'State',
  'Zip',
  ...NUMBERS,
  'Kind',
  'PaidDays',
  'PaidFrom',
  'PaidUntil',
  'Curb',
] as const;

/** Blank text is no number (the contract then says what is wanted); '12.5' is 12.5, 'abc' stays refused. */
export const asNumber = (v: unknown) => (typeof v !== 'string' ? v : v.trim() === '' ? undefined : Number(v));

/**
 * The contract's own ZoneInput, given the typed text as numbers: one schema for the form and the
 * server (docs/conventions.md#the-web-app). The cast names the form's text input type, which
 * z.preprocess leaves unknown.
 */
export const ZoneForm = z.preprocess((raw) => {
  const v = { ...(raw as Record<string, unknown>) };
  for (const k of NUMBERS) v[k] = asNumber(v[k]);
  v.PaidDays = Array.isArray(v.PaidDays) ? v.PaidDays.map(asNumber) : [];
  return v;
}, ZoneInput) as unknown as z.ZodType<CheckedZone, ZoneFormValues>;

export const BLANK: ZoneFormValues = {
  ZoneNumber: '',
  Name: '',
  Address: '',
  City: '',
  State: '',
  Zip: '',
  Latitude: '',
  Longitude: '',
  Kind: 'street',
  Capacity: '0',
  RatePerHour: '',
  MaxStayMinutes: '120',
  PaidDays: ['1', '2', '3', '4', '5', '6', '7'],
  PaidFrom: '08:00',
  PaidUntil: '18:00',
  Curb: null,
};

export function valuesOf(z: OperatorZone): ZoneFormValues {
  return {
    ZoneNumber: z.ZoneNumber,
    Name: z.Name,
    Address: z.Address,
    City: z.City,
    State: z.State,
    Zip: z.Zip,
    Latitude: String(z.Latitude),
    Longitude: String(z.Longitude),
    Kind: z.Kind,
    Capacity: String(z.Capacity),
    RatePerHour: z.RatePerHour.toFixed(2),
    MaxStayMinutes: String(z.MaxStayMinutes),
    PaidDays: z.PaidDays.map(String),
    PaidFrom: z.PaidFrom,
    PaidUntil: z.PaidUntil,
    Curb: z.Curb,
  };
}

/** The message of a field's error, or of the first nested one (a curb's point, a paid day). */
export function firstMessage(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const e = error as { message?: unknown };
  if (typeof e.message === 'string' && e.message) return e.message;
  for (const v of Object.values(error as Record<string, unknown>)) {
    const m = v && typeof v === 'object' && !('nodeType' in v) ? firstMessage(v) : undefined;
    if (m) return m;
  }
  return undefined;
}

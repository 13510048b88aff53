import { z } from 'zod';
import { ErrorResponse, text } from './common.ts';
import { EmailAddress, PhoneNumber, UserName } from './auth.ts';
import { MESSAGES, SPEC_MESSAGES } from './messages.ts';
import { amountToCents } from './money.ts';
import { WireId } from './vehicle.ts';
import { WalletDetails } from './wallet.ts';

/** docs/product.md#stored-data, saved user data: what the app keeps under the user_data key. */
export const UserData = z.object({
  MemberId: z.number().int(),
  EmailAddress: z.string(),
  PhoneNumber: z.string(),
  FirstName: z.string(),
  LastName: z.string(),
  UserName: z.string(),
  AddressLine1: z.string(),
  AddressLine2: z.string(),
  City: z.string(),
  State: z.string(),
  ZipCode: z.string(),
  MinBalance: z.string(),
});
export type UserData = z.infer<typeof UserData>;

/** GET /api/Account/Details: the spec's Balance and MinBalance, plus user_data and app keys. */
export const AccountDetails = UserData.extend({
  Balance: z.number(),
  ClientId: z.number().int(),
  VehicleCount: z.number().int(),
  // The wallet's settings, default card and plan.
  ...WalletDetails.shape,
});
export type AccountDetails = z.infer<typeof AccountDetails>;

export const ZipCode = z
  .string({ error: SPEC_MESSAGES.zipRequired })
  .trim()
  .min(1, SPEC_MESSAGES.zipRequired)
  .regex(/^\d{5}(-?\d{4})?$/, MESSAGES.zipFormat);

export const StateCode = z
  .string({ error: SPEC_MESSAGES.stateRequired })
  .trim()
  .min(1, SPEC_MESSAGES.stateRequired)
  .regex(/^[A-Z]{2}$/, MESSAGES.stateUnknown);

/** Optional text without control characters (PostgreSQL refuses NUL bytes in text). */
const optionalText = (max: number) =>
  z
    .string({ error: 'Must be text' })
    .trim()
    .max(max, `At most ${max} characters`)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'Contains characters that are not allowed')
    .optional();

/**
 * POST /api/Account/Update, the spec's payload. Username, email and phone are read-only on the
 * screen; the server takes them from the account, not the body, and only checks their shape.
 * MinBalance belongs to the wallet, so it is checked and ignored here too. FirstName and LastName
 * (not on the screen) keep their saved values when absent or blank; AddressLine2 keeps its value
 * when absent and is cleared by ''.
 */
export const UpdateAccountRequest = z.object({
  ID: WireId.optional(),
  EmailAddress,
  PhoneNumber,
  FirstName: optionalText(50),
  LastName: optionalText(50),
  UserName,
  AddressLine1: text(100, SPEC_MESSAGES.addressRequired),
  AddressLine2: optionalText(100),
  City: text(60, SPEC_MESSAGES.cityRequired),
  State: StateCode,
  ZipCode,
  MinBalance: z
    .union([z.string().trim().max(20), z.number()], { error: 'MinBalance must be an amount' })
    .refine((v) => v === '' || amountToCents(v) !== null, 'MinBalance must be an amount')
    .optional(),
});
export type UpdateAccountRequest = z.input<typeof UpdateAccountRequest>;

/** What POST /api/Account/Update answers: the saved user data and the spec's toast text. */
export const UpdateAccountResponse = UserData.extend({ message: z.string() });
export type UpdateAccountResponse = z.infer<typeof UpdateAccountResponse>;

/**
 * Its failures carry the text twice: `message` as every API error does (the shared client reads
 * it), `Message` because the spec's profile screen shows "the Message field of the response".
 */
export const UpdateAccountError = ErrorResponse.extend({ Message: z.string() });
export type UpdateAccountError = z.infer<typeof UpdateAccountError>;

/**
 * POST /api/Account/Language: the app's language, chosen on a screen while signed in. The member's
 * texts and notifications are written in it from then on (a sign-in saves it too).
 */
export const ChangeLanguageRequest = z.object({
  Language: z.enum(['en', 'hi', 'es'], { error: 'Language must be en, hi or es' }),
});
export type ChangeLanguageRequest = z.infer<typeof ChangeLanguageRequest>;

import { z } from 'zod';
import { OtpCode, PhoneNumber } from './auth.ts';
import { StateCode } from './account.ts';
import { VEHICLE_MESSAGES } from './messages.ts';
import { Quote } from './parking.ts';
import { ExpressToken } from './wallet.ts';
import { Zone } from './zone.ts';

/** Quick Park: a driver without an account parks with a verified phone and a card. */

export const QUICK_PARK_MESSAGES = {
  guestTokenMissing: 'Please verify your mobile number first',
  zoneNumberRequired: 'Zone number is required',
  zoneNotFound: 'No zone has this number',
  cardTokenRequired: 'Card is required',
  noCard: 'This session has no card to charge: start a new Quick Park session',
  expressRequired: 'Pay the extension with Apple Pay or Google Pay',
  expressAndCard: 'Pay with a card or an express wallet, not both',
} as const;

export const GuestSendCodeRequest = z.object({ PhoneNumber }).strict();
export type GuestSendCodeRequest = z.input<typeof GuestSendCodeRequest>;

export const GuestVerifyRequest = z.object({ PhoneNumber, Code: OtpCode }).strict();
export type GuestVerifyRequest = z.input<typeof GuestVerifyRequest>;

/** Sent back as the `x-guest-token` header of the other Quick Park calls (and in the receipt link). */
export const GuestToken = z.object({ GuestToken: z.string(), PhoneNumber: z.string(), ExpiresAt: z.string() });
export type GuestToken = z.infer<typeof GuestToken>;

export const GuestQuoteRequest = z
  .object({
    ZoneNumber: z
      .string({ error: QUICK_PARK_MESSAGES.zoneNumberRequired })
      .trim()
      .min(1, QUICK_PARK_MESSAGES.zoneNumberRequired)
      .max(20, QUICK_PARK_MESSAGES.zoneNotFound)
      .regex(/^[\w-]+$/, QUICK_PARK_MESSAGES.zoneNotFound),
    PlateNumber: z
      .string({ error: VEHICLE_MESSAGES.plateRequired })
      .trim()
      .min(1, VEHICLE_MESSAGES.plateRequired)
      .regex(/^[A-Za-z0-9 -]{2,10}$/, VEHICLE_MESSAGES.plateFormat)
      .transform((p) => p.toUpperCase()),
    PlateState: StateCode,
    DurationMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60),
  })
  .strict();
export type GuestQuoteRequest = z.input<typeof GuestQuoteRequest>;

/**
 * POST /api/Parking/Guest/Quote's answer: the price, and the zone the typed number names (its
 * number, name and address), so the driver can check it against the sign before paying.
 */
export const GuestQuote = Quote.extend(
  Zone.pick({ ZoneNumber: true, Name: true, Address: true, City: true, State: true }).shape,
);
export type GuestQuote = z.infer<typeof GuestQuote>;

/**
 * GET /api/Parking/Guest/Payment: how a guest's card is taken. With Stripe, the publishable key
 * loads Stripe.js for its Express Checkout Element (Apple Pay, Google Pay), whose PaymentMethod is
 * the Start's ExpressToken; with the sandbox (offline), its tokenizer and test wallet.
 */
export const GuestPayment = z.object({
  PaymentProvider: z.enum(['sandbox', 'stripe']),
  PublishableKey: z.string().nullable(),
  /** ISO 4217, as the quote's amounts are in it (what Stripe's wallet sheet shows). */
  Currency: z.string(),
});
export type GuestPayment = z.infer<typeof GuestPayment>;

/**
 * A typed card's token (CardToken: the sandbox's, POST /api/Sandbox/Tokens; with Stripe, the
 * PaymentMethod of a card form), saved by the Start's charge to pay the extensions (Stripe: under a
 * customer of its own); or an express wallet's one-time card (ExpressToken: Stripe's Express
 * Checkout Element, the sandbox's test wallet), charged once and kept nowhere, so each Extend
 * brings its own.
 */
export const GuestStartRequest = z
  .object({
    QuoteId: z.string().trim().uuid(),
    CardToken: z.string().trim().min(1, QUICK_PARK_MESSAGES.cardTokenRequired).max(2000).optional(),
    ExpressToken: ExpressToken.optional(),
  })
  .strict()
  .refine((r) => r.CardToken !== undefined || r.ExpressToken !== undefined, {
    message: QUICK_PARK_MESSAGES.cardTokenRequired,
    path: ['CardToken'],
  })
  .refine((r) => r.CardToken === undefined || r.ExpressToken === undefined, {
    message: QUICK_PARK_MESSAGES.expressAndCard,
    path: ['ExpressToken'],
  });
export type GuestStartRequest = z.input<typeof GuestStartRequest>;

/** POST /api/Parking/Guest/ExtendQuote: more minutes for one of this phone's running sessions. */
export const GuestExtendQuoteRequest = z
  .object({
    SessionId: z.number().int().positive().max(2_147_483_647),
    DurationMinutes: z
      .number()
      .int()
      .min(1)
      .max(24 * 60),
  })
  .strict();
export type GuestExtendQuoteRequest = z.input<typeof GuestExtendQuoteRequest>;

/**
 * POST /api/Parking/Guest/ExtendQuote's answer: the price, and whether the session keeps no card
 * (it was paid by an express wallet), so the extension is paid with a new ExpressToken.
 */
export const GuestExtendQuote = Quote.extend({ ExpressRequired: z.boolean() });
export type GuestExtendQuote = z.infer<typeof GuestExtendQuote>;

/**
 * POST /api/Parking/Guest/Extend: pays the extension quote with the card the session was paid
 * with, or, when it keeps none (an express wallet paid it), with a new express payment.
 */
export const GuestExtendRequest = z
  .object({ QuoteId: z.string().trim().uuid(), ExpressToken: ExpressToken.optional() })
  .strict();
export type GuestExtendRequest = z.input<typeof GuestExtendRequest>;

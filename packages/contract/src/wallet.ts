import { z } from 'zod';
import { amountToCents } from './money.ts';

/** Wallet, cards and plans: every message the API and the screens show. */
export const WALLET_MESSAGES = {
  insufficientFunds: 'Your wallet balance is too low.',
  idempotencyKeyRequired: 'The Idempotency-Key header is required',
  idempotencyKeyFormat: 'The Idempotency-Key header must be 1 to 255 visible characters',
  idempotencyKeyReused: 'This Idempotency-Key was already used for a different request',
  idempotencyKeyInFlight: 'A request with this Idempotency-Key is still running',
  walletBusy: 'Another payment of this wallet was running at the same time. Nothing was charged; please try again.',
  requestBusy: 'Another change was running at the same time. Nothing was changed; please try again.',
  amountRequired: 'Amount is required',
  amountFormat: 'Enter an amount with at most two decimals',
  amountRange: 'Enter an amount from 5.00 to 500.00',
  triggerRange: 'Enter a trigger amount from 0.00 to 500.00',
  noCard: 'Add a payment card first',
  tokenRequired: 'Token is required',
  tokenInvalid: 'This card token is not valid. Please enter the card again.',
  cardNumberRequired: 'Card number is required',
  cardNumberInvalid: 'Your card number is invalid.',
  cardNotTest: 'Your card was declined. Your request was in test mode, but used a non test card.',
  expiryInvalid: 'Your card’s expiration date is invalid.',
  expired: 'Your card has expired.',
  cvcInvalid: 'Your card’s security code is invalid.',
  declined: 'Your card was declined.',
  insufficientCardFunds: 'Your card has insufficient funds.',
  providerUnavailable: 'The payment provider could not be reached. Nothing was charged; please try again.',
  planUnknown: 'Choose a plan from the list',
  planAlready: 'You are already on this plan',
  planFree: 'Basic is free: cancel your plan to go back to it',
  noSubscription: 'You have no paid plan to cancel',
  reloadDeclined: 'Auto-reload was switched off because your card was declined',
  defaultCardDeleted: 'The default card was deleted, so auto-reload is now off',
  refundRefused: 'The card payment could not be refunded. Nothing was changed; please contact support.',
  expressAndCard: 'Pay with a saved card or an express payment, not both',
} as const;

/** An id in a body: a number or digits, never an array or object coerced into one. */
const BodyId = z
  .union([z.number(), z.string().trim().max(12)], { error: 'Must be a number' })
  .transform((v) => (v === '' ? NaN : Number(v)))
  .pipe(
    z
      .number({ error: 'Must be a number' })
      .int('Must be a whole number')
      .positive('Must be a positive number')
      .max(2_147_483_647, 'Too large'),
  );

export const LEDGER_KIND_VALUES = [
  'top-up',
  'auto-reload',
  'parking',
  'refund',
  'plan',
  'adjustment',
  'card-refund',
  'citation',
  'citation-refund',
  'permit',
] as const;

/** An amount on the wire: a number or a numeric string with at most two decimals. */
export const WireAmount = z.union([z.number(), z.string().max(20)], { error: WALLET_MESSAGES.amountFormat });

/** Add Money: 5.00 to 500.00, two decimals at most; parsed to cents. */
export const TopUpAmount = z
  .union([z.number(), z.string().max(20, WALLET_MESSAGES.amountFormat)], { error: WALLET_MESSAGES.amountRequired })
  .refine((v) => v !== '', WALLET_MESSAGES.amountRequired)
  .transform((v, ctx) => {
    const cents = amountToCents(v);
    if (cents === null) {
      ctx.addIssue(WALLET_MESSAGES.amountFormat);
      return z.NEVER;
    }
    if (cents < 500 || cents > 50_000) {
      ctx.addIssue(WALLET_MESSAGES.amountRange);
      return z.NEVER;
    }
    return cents;
  });

/** The reload trigger (MinBalance): 0.00 to 500.00. */
export const TriggerAmount = z
  .union([z.number(), z.string().max(20, WALLET_MESSAGES.amountFormat)], { error: WALLET_MESSAGES.amountRequired })
  .transform((v, ctx) => {
    const cents = amountToCents(v);
    if (cents === null || cents < 0 || cents > 50_000) {
      ctx.addIssue(cents === null ? WALLET_MESSAGES.amountFormat : WALLET_MESSAGES.triggerRange);
      return z.NEVER;
    }
    return cents;
  });

export const CardSummary = z.object({
  PaymentMethodId: z.number().int(),
  Provider: z.enum(['sandbox', 'stripe']),
  Brand: z.string(),
  Last4: z.string(),
  ExpMonth: z.number().int(),
  ExpYear: z.number().int(),
  IsDefault: z.boolean(),
});
export type CardSummary = z.infer<typeof CardSummary>;

export const PlanSummary = z.object({
  PlanId: z.number().int(),
  Code: z.string(),
  Name: z.string(),
  Price: z.number(),
  ConvenienceFee: z.number(),
  ZoneDiscountPercent: z.number().int(),
});
export type PlanSummary = z.infer<typeof PlanSummary>;

/** The wallet part of GET /api/Account/Details. */
export const WalletDetails = z.object({
  DefaultAddAmount: z.number(),
  AutoReload: z.boolean(),
  Currency: z.string(),
  CurrencySymbol: z.string(),
  DefaultCard: z.object({ PaymentMethodId: z.number().int(), Brand: z.string(), Last4: z.string() }).nullable(),
  Plan: z.object({ PlanId: z.number().int(), Code: z.string(), Name: z.string() }),
  PaymentProvider: z.enum(['sandbox', 'stripe']),
});
export type WalletDetails = z.infer<typeof WalletDetails>;

export const AutoReloadRequest = z.object({
  AutoReload: z.boolean({ error: 'AutoReload must be true or false' }),
  DefaultAddAmount: TopUpAmount,
  MinBalance: TriggerAmount,
});
export type AutoReloadRequest = z.input<typeof AutoReloadRequest>;

export const AutoReloadResponse = z.object({
  AutoReload: z.boolean(),
  DefaultAddAmount: z.number(),
  MinBalance: z.string(),
  message: z.string(),
});

export const Transaction = z.object({
  TransactionId: z.number().int(),
  Kind: z.enum(LEDGER_KIND_VALUES),
  Amount: z.number(),
  BalanceAfter: z.number(),
  Reference: z.string(),
  CreatedAt: z.string(),
});
export type Transaction = z.infer<typeof Transaction>;

export const TransactionsQuery = z.object({
  cursor: z.coerce
    .number({ error: 'cursor must be a number' })
    .int('cursor must be a whole number')
    .positive('cursor must be positive')
    .max(Number.MAX_SAFE_INTEGER)
    .optional(),
  limit: z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be from 1 to 100')
    .max(100, 'limit must be from 1 to 100')
    .default(20),
});

export const TransactionsPage = z.object({ Items: z.array(Transaction), NextCursor: z.number().int().nullable() });
export type TransactionsPage = z.infer<typeof TransactionsPage>;

export const SpendingMonth = z.object({ Month: z.string(), Spent: z.number(), Added: z.number() });
export const Spending = z.object({ Months: z.array(SpendingMonth) });
export type Spending = z.infer<typeof Spending>;

/**
 * Add Money: a saved card (the default unless PaymentMethodId), or an express payment's one-time
 * card (ExpressToken: Apple Pay or Google Pay through Stripe's Express Checkout Element, or the
 * sandbox's test wallet), which is charged and never saved.
 */
/** An express payment's one-time card, as the wallet's sheet gave it (Add Money, Subscribe, Quick Park). */
export const ExpressToken = z.string().min(1, WALLET_MESSAGES.tokenRequired).max(1000, WALLET_MESSAGES.tokenInvalid);

export const AddMoneyRequest = z
  .object({
    Amount: TopUpAmount,
    PaymentMethodId: BodyId.optional(),
    ExpressToken: ExpressToken.optional(),
  })
  .refine((r) => r.PaymentMethodId === undefined || r.ExpressToken === undefined, {
    message: WALLET_MESSAGES.expressAndCard,
    path: ['ExpressToken'],
  });
export type AddMoneyRequest = z.input<typeof AddMoneyRequest>;

export const AddMoneyResponse = z.object({
  TransactionId: z.number().int(),
  Amount: z.number(),
  Balance: z.number(),
  message: z.string(),
});
export type AddMoneyResponse = z.infer<typeof AddMoneyResponse>;

export const AddCardRequest = z.object({
  Token: z
    .string({ error: WALLET_MESSAGES.tokenRequired })
    .trim()
    .min(1, WALLET_MESSAGES.tokenRequired)
    .max(2000, WALLET_MESSAGES.tokenInvalid),
  MakeDefault: z.boolean().optional(),
});
export const PaymentMethodIdRequest = z.object({ PaymentMethodId: BodyId });

/**
 * Paying a permit or a citation: from the wallet when PaymentMethodId is left out (as an
 * empty or absent body), else by that saved card, charged for exactly the amount due, which is
 * then paid through the wallet (the ledger shows the charge in and the payment out).
 */
export const PayFromRequest = z.object({ PaymentMethodId: BodyId.optional() }).strict().nullish();
export type PayFromRequest = z.input<typeof PayFromRequest>;

/** The sandbox tokenizer (POST /api/Sandbox/Tokens): the only place a card number is sent to. */
export const SandboxCardRequest = z.object({
  Number: z.string({ error: WALLET_MESSAGES.cardNumberRequired }).max(40, WALLET_MESSAGES.cardNumberInvalid),
  ExpMonth: z.coerce
    .number({ error: WALLET_MESSAGES.expiryInvalid })
    .int(WALLET_MESSAGES.expiryInvalid)
    .min(1, WALLET_MESSAGES.expiryInvalid)
    .max(12, WALLET_MESSAGES.expiryInvalid),
  ExpYear: z.coerce
    .number({ error: WALLET_MESSAGES.expiryInvalid })
    .int(WALLET_MESSAGES.expiryInvalid)
    .min(2000, WALLET_MESSAGES.expiryInvalid)
    .max(2100, WALLET_MESSAGES.expiryInvalid),
  Cvc: z.string({ error: WALLET_MESSAGES.cvcInvalid }).regex(/^\d{3,4}$/, WALLET_MESSAGES.cvcInvalid),
});
export type SandboxCardRequest = z.input<typeof SandboxCardRequest>;
export const SandboxTokenResponse = z.object({ Token: z.string(), Brand: z.string(), Last4: z.string() });

export const SetupIntentResponse = z.object({ ClientSecret: z.string(), PublishableKey: z.string() });

export const PlansResponse = z.array(PlanSummary);
export const CurrentSubscription = z.object({
  Plan: PlanSummary,
  SubscriptionId: z.number().int().nullable(),
  CurrentPeriodEnd: z.string().nullable(),
  CancelAtPeriodEnd: z.boolean(),
});
export type CurrentSubscription = z.infer<typeof CurrentSubscription>;
/**
 * Subscribe: the first month from the default card, or from an express payment's one-time card
 * (ExpressToken), which is charged and never saved; the renewals come from the default card.
 */
export const SubscribeRequest = z.object({ PlanId: BodyId, ExpressToken: ExpressToken.optional() });

/** What POST /api/Stripe/Webhook answers Stripe. */
export const WebhookAck = z.object({ received: z.boolean(), duplicate: z.boolean() });

export const DeleteCardResponse = z.object({ message: z.string(), AutoReloadTurnedOff: z.boolean() });

/** The Idempotency-Key header of money-moving routes (checked by the server's helper). */
export const IdempotencyHeaders = z.object({ 'idempotency-key': z.string().optional() });

export const WALLET_TEXTS = {
  moneyAdded: 'Money Added',
  autoReloadSaved: 'Auto-reload settings saved',
  cardAdded: 'Card added',
  cardDeleted: 'Card deleted',
  defaultCardSet: 'Default card changed',
  subscribed: 'subscribed to the Deluxe plan',
  cancelled: 'Your plan will end at the end of the period',
} as const;

/** The payment provider interface: `sandbox` (offline, default) or `stripe`. */
export type ProviderName = 'sandbox' | 'stripe';

export interface SavedCard {
  /** What the provider charges later: the sandbox token, or Stripe's pm_… id. */
  providerRef: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

/** Money a provider moves once: a retried request passes the same idempotency key and never moves it twice. */
interface ProviderRequest {
  amountCents: number;
  idempotencyKey: string;
}

/** The provider's answer: done, with its reference, or why not (unavailable: the provider could not be reached). */
type ProviderResult<Done, Refusal extends string> =
  ({ ok: true } & Done) | { ok: false; reason: Refusal | 'unavailable'; message: string };

export interface ChargeRequest extends ProviderRequest {
  /**
   * The provider customer (Stripe cus_…) of a saved card, charged off-session: the member's, or the
   * one a Quick Park guest's card was saved under by its first charge (saveCard); null for the
   * sandbox and for an express payment's one-time card, which the driver has just confirmed.
   */
  customerRef: string | null;
  providerRef: string;
  currency: string;
  description: string;
  /**
   * The first charge of a typed card that later charges reuse (Quick Park's card, charged again by
   * Extend; customerRef is then null): the provider saves it for off-session charges and answers
   * the customer it saved it under. Stripe refuses a second charge of a PaymentMethod no customer
   * holds, so it creates a Customer (under this request's key plus ':customer') and confirms with
   * `customer` and `setup_future_usage`; the sandbox's token can be charged again as it is (null).
   */
  saveCard?: boolean;
}

/**
 * declined: the card said no (nothing charged). customerRef: the customer a saveCard charge saved
 * the card under (null for the sandbox, and for any other charge).
 */
export type ChargeResult = ProviderResult<{ chargeRef: string; customerRef: string | null }, 'declined'>;

export interface RefundRequest extends ProviderRequest {
  /** What charge() answered: the charge (sandbox) or PaymentIntent (Stripe) to give money back from. */
  chargeRef: string;
}

/** refused: the provider will not refund this (unknown charge, more than was charged). */
export type RefundResult = ProviderResult<{ refundRef: string }, 'refused'>;

/**
 * refused: the provider will not delete it for good (not a customer of this account); `unavailable`
 * is worth trying again.
 */
export type DeleteCustomerResult = ProviderResult<object, 'refused'>;

export interface PaymentProvider {
  readonly name: ProviderName;
  /**
   * Checks a token the browser obtained (sandbox token, or Stripe PaymentMethod id) and reads the
   * card, once the card was verified (Stripe: a SetupIntent of the member's customer succeeded with
   * it); a card declined there is refused with the bank's reason (CardError, 402).
   */
  attach(token: string, customerRef: string | null): Promise<SavedCard>;
  /** Stripe: the customer to save cards under (created once per member). Sandbox: null. */
  ensureCustomer(memberId: number, existing: string | null): Promise<string | null>;
  charge(req: ChargeRequest): Promise<ChargeResult>;
  /**
   * Checks a one-time card of an express payment (Apple Pay, Google Pay; the sandbox's test wallet)
   * and reads it: one no customer holds, charged once and never saved. CardError when it is not one.
   */
  readExpress(token: string): Promise<SavedCard>;
  /** Gives part or all of a charge back to the card (Quick Park's Stop). */
  refund(req: RefundRequest): Promise<RefundResult>;
  /** Forgets a saved card at the provider (best effort). */
  detach(providerRef: string): Promise<void>;
  /**
   * Deletes a customer that a saveCard charge answered, and with it every card saved under it
   * (Quick Park's typed card, once its session can no longer be extended: parking/saved-cards.ts).
   * A customer the provider no longer has is deleted already (ok). The sandbox keeps none (ok).
   */
  deleteCustomer(customerRef: string): Promise<DeleteCustomerResult>;
}

/**
 * A refusal the member caused: a bad token or card (400), or a card its bank declined when it was
 * verified on being added (402, `declined`). Becomes that status with this message.
 */
export class CardError extends Error {
  constructor(
    message: string,
    readonly field = 'Token',
    readonly status: 400 | 402 = 400,
  ) {
    super(message);
    this.name = 'CardError';
  }
}

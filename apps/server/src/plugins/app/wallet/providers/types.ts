/** The payment provider interface (issue 10): `sandbox` (offline, default) or `stripe`. */
export type ProviderName = 'sandbox' | 'stripe';

export interface SavedCard {
  /** What the provider charges later: the sandbox token, or Stripe's pm_… id. */
  providerRef: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
}

export interface ChargeRequest {
  /** The member's provider customer (Stripe cus_…); null for the sandbox. */
  customerRef: string | null;
  providerRef: string;
  amountCents: number;
  currency: string;
  description: string;
  /** Passed to the provider so that a retried request never charges twice. */
  idempotencyKey: string;
}

export type ChargeResult =
  | { ok: true; chargeRef: string }
  /** declined: the card said no (nothing charged); unavailable: the provider could not be reached. */
  | { ok: false; reason: 'declined' | 'unavailable'; message: string };

export interface RefundRequest {
  /** What charge() answered: the charge (sandbox) or PaymentIntent (Stripe) to give money back from. */
  chargeRef: string;
  amountCents: number;
  /** Passed to the provider so that a retried request never refunds twice. */
  idempotencyKey: string;
}

export type RefundResult =
  | { ok: true; refundRef: string }
  /** refused: the provider will not refund this (unknown charge, more than was charged); unavailable: not reached. */
  | { ok: false; reason: 'refused' | 'unavailable'; message: string };

export interface PaymentProvider {
  readonly name: ProviderName;
  /** Checks a token the browser obtained (sandbox token, or Stripe PaymentMethod id) and reads the card. */
  attach(token: string, customerRef: string | null): Promise<SavedCard>;
  /** Stripe: the customer to save cards under (created once per member). Sandbox: null. */
  ensureCustomer(memberId: number, existing: string | null): Promise<string | null>;
  charge(req: ChargeRequest): Promise<ChargeResult>;
  /** Gives part or all of a charge back to the card (Quick Park's Stop). */
  refund(req: RefundRequest): Promise<RefundResult>;
  /** Forgets a saved card at the provider (best effort). */
  detach(providerRef: string): Promise<void>;
}

/** A refusal the member caused (bad token, bad card): becomes a 400/402 with this message. */
export class CardError extends Error {
  constructor(
    message: string,
    readonly field = 'Token',
  ) {
    super(message);
    this.name = 'CardError';
  }
}

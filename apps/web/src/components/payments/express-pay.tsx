import { lazy, Suspense } from 'react';
import type { GuestPayment } from '@parkit/contract';
import { SandboxExpressButton } from './sandbox-express-button.tsx';

const StripeExpressCheckout = lazy(() => import('./stripe-express-checkout.tsx'));

export interface ExpressPayProps {
  provider: GuestPayment['PaymentProvider'];
  /** What the driver pays, in cents: the Express Checkout Element shows it in the wallet's sheet. */
  amountCents: number;
  currency: string;
  /** Checks the form first; false when the amount is not valid (its error shows under it). */
  ready: () => Promise<boolean>;
  /** The one-time card the wallet gave: the screen pays with it (its ExpressToken: Add Money, Subscribe, Quick Park's Start and Extend). */
  onToken: (token: string) => Promise<void>;
  /** With Stripe, its publishable key (a member's SetupIntent answer, a guest's Guest/Payment). */
  publishableKey: () => Promise<string | null>;
}

/**
 * Apple Pay and Google Pay (docs/operations.md#payments): with Stripe, its Express Checkout Element,
 * shown only where the device offers one of them; with the sandbox (offline), a test wallet button
 * that gives a one-time test card the same way, so the tests and the local demo need no network.
 * Either way the screen pays with the token through the same request as a saved card.
 */
export function ExpressPay(props: ExpressPayProps) {
  return props.provider === 'stripe' ? (
    <Suspense fallback={null}>
      <StripeExpressCheckout {...props} />
    </Suspense>
  ) : (
    <SandboxExpressButton {...props} />
  );
}

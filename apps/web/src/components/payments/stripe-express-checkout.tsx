import { useEffect, useMemo, useState } from 'react';
import { Elements, ExpressCheckoutElement, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe } from '@stripe/stripe-js';
import type { ExpressPayProps } from './express-pay.tsx';

/**
 * Stripe's Express Checkout Element (Apple Pay, Google Pay). It renders nothing until Stripe says
 * which wallets this device offers, and nothing at all when it offers none. A confirmed sheet
 * becomes a PaymentMethod (createPaymentMethod), which the screen sends as ExpressToken: the
 * server charges it through the same charge path as a saved card.
 */
function Express({ ready, onToken }: Pick<ExpressPayProps, 'ready' | 'onToken'>) {
  const stripe = useStripe();
  const elements = useElements();
  const [shown, setShown] = useState(false);
  return (
    <div hidden={!shown}>
      <ExpressCheckoutElement
        options={{ paymentMethods: { applePay: 'auto', googlePay: 'auto', link: 'never', amazonPay: 'never' } }}
        onReady={(e) => setShown(Boolean(e.availablePaymentMethods))}
        onClick={(e) => void ready().then((ok) => (ok ? e.resolve() : undefined))}
        onConfirm={async () => {
          if (!stripe || !elements) return;
          const submitted = await elements.submit();
          if (submitted.error) return;
          const made = await stripe.createPaymentMethod({ elements });
          if (made.error || !made.paymentMethod) return;
          await onToken(made.paymentMethod.id);
        }}
      />
    </div>
  );
}

export default function StripeExpressCheckout(props: ExpressPayProps) {
  const [key, setKey] = useState<string | null>(null);
  const { publishableKey } = props;
  useEffect(() => {
    publishableKey().then(setKey, () => setKey(null));
  }, [publishableKey]);
  const stripePromise = useMemo(() => (key ? loadStripe(key) : null), [key]);
  if (!stripePromise || props.amountCents <= 0) return null;
  return (
    <Elements
      stripe={stripePromise}
      options={{
        mode: 'payment',
        amount: props.amountCents,
        currency: props.currency.toLowerCase(),
        paymentMethodCreation: 'manual',
      }}
    >
      <Express ready={props.ready} onToken={props.onToken} />
    </Elements>
  );
}

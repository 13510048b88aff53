import { useEffect, useMemo, useState } from 'react';
import { z } from 'zod';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe } from '@stripe/stripe-js';
import { useTranslation } from '../../../lib/i18n.ts';
import type { CardSummary } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { createSetupIntent, useAddCard } from '../api/wallet.ts';

/** The card's fields are Stripe's own (CardElement): the form has none of ours to check. */
const NoFields = z.object({});

interface Props {
  makeDefault: boolean;
  onAdded: (card: CardSummary) => void | Promise<void>;
}

/** Stripe Elements: the card goes from the browser to Stripe; we get a SetupIntent's pm_… id. */
function CardForm({ clientSecret, makeDefault, onAdded }: Props & { clientSecret: string }) {
  const { t } = useTranslation();
  const stripe = useStripe();
  const elements = useElements();
  const add = useAddCard();
  const { handleSubmit, submitting } = useSchemaForm(NoFields, {});
  const [error, setError] = useState<string | null>(null);

  const submit = handleSubmit(async () => {
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) return;
    setError(null);
    try {
      const res = await stripe.confirmCardSetup(clientSecret, { payment_method: { card } });
      if (res.error) {
        setError(res.error.message ?? t('Your card was declined.'));
        return;
      }
      const pm = res.setupIntent.payment_method;
      const saved = await add.mutateAsync({
        Token: typeof pm === 'string' ? pm : (pm?.id ?? ''),
        MakeDefault: makeDefault,
      });
      await onAdded(saved);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : t('Your card was declined.'));
    }
  });

  return (
    <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-4 rounded-2xl bg-white p-4 shadow-sm">
      <div className="rounded-xl border border-slate-300 p-3">
        <CardElement options={{ hidePostalCode: true }} />
      </div>
      {error && (
        <p role="alert" className="text-sm font-medium text-red-700">
          {t(error)}
        </p>
      )}
      <Button type="submit" block loading={submitting} disabled={!stripe}>
        {t('Save card')}
      </Button>
    </form>
  );
}

export default function StripeCardForm(props: Props) {
  const { t } = useTranslation();
  const [intent, setIntent] = useState<{ ClientSecret: string; PublishableKey: string } | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    createSetupIntent().then(setIntent, () => setFailed(true));
  }, []);
  const stripePromise = useMemo(() => (intent ? loadStripe(intent.PublishableKey) : null), [intent]);
  if (failed)
    return (
      <p role="alert" className="text-sm text-red-700">
        {t('The payment provider could not be reached. Nothing was charged; please try again.')}
      </p>
    );
  if (!intent || !stripePromise) return <Skeleton rows={1} className="h-32" />;
  return (
    <Elements stripe={stripePromise} options={{ clientSecret: intent.ClientSecret }}>
      <CardForm {...props} clientSecret={intent.ClientSecret} />
    </Elements>
  );
}

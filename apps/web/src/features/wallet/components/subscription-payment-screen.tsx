import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useAccountDetails } from '../api/account.ts';
import { usePlans, useSubscribe } from '../api/wallet.ts';
import { useIntentKey } from '../../../lib/intent-key.ts';
import { money } from '../lib/money.ts';
import cardProvider from '../assets/card-provider.svg';
import { NoCard, PaidDialog, PaymentHeader } from './payment-parts.tsx';

/**
 * The spec's subscription payment page: back link to /subscription and a card-provider image.
 * Pressing the image charges Deluxe to the default card, once, and only then opens 'Success!'.
 */
export function SubscriptionPaymentScreen() {
  const { t } = useTranslation();
  const details = useAccountDetails();
  const plans = usePlans();
  const subscribe = useSubscribe();
  const intent = useIntentKey();
  const [done, setDone] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const deluxe = plans.data?.find((p) => p.Code === 'deluxe');
  const card = details.data?.DefaultCard;

  const pay = async () => {
    if (!deluxe || subscribe.isPending) return;
    setError(null);
    try {
      await subscribe.mutateAsync({ planId: deluxe.PlanId, key: intent.keyFor({ plan: deluxe.PlanId }) });
      intent.done();
      setDone(true);
    } catch (err) {
      intent.done();
      setError(err instanceof ApiError ? err.message : String(err));
    }
  };

  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PaymentHeader title={t('Payment')} back={paths.subscription} details={details.data} />
      <div className="flex flex-col items-center gap-4 p-4">
        {details.isPending || plans.isPending ? (
          <Skeleton rows={1} className="h-48 w-full" />
        ) : !card ? (
          <NoCard from={paths.subscriptionPayment} />
        ) : (
          <>
            {deluxe && (
              <p className="text-center text-sm text-slate-700">
                {t('Deluxe: {{price}} a month, charged to {{brand}} ending {{last4}}. Press the card to pay.', {
                  price: money(details.data?.CurrencySymbol ?? '$', deluxe.Price),
                  brand: card.Brand,
                  last4: card.Last4,
                })}
              </p>
            )}
            <button
              type="button"
              onClick={() => void pay()}
              disabled={subscribe.isPending}
              aria-busy={subscribe.isPending || undefined}
              className="rounded-2xl transition-transform hover:scale-[1.01] focus-visible:outline-4 focus-visible:outline-brand-700 disabled:opacity-60"
            >
              <img src={cardProvider} width={320} height={200} className="h-auto w-full max-w-xs" alt={t('Pay with {{brand}} ending {{last4}}', { brand: card.Brand, last4: card.Last4 })} />
            </button>
            {subscribe.isPending && <p className="text-sm text-slate-600">{t('Loading')}</p>}
            {error && (
              <p role="alert" className="w-full rounded-xl bg-red-50 p-3 text-sm font-medium text-red-700">
                {t(error)}
              </p>
            )}
          </>
        )}
      </div>
      <PaidDialog open={done} to={paths.homepage} title={t('Success!')} description={t('You have subscribed to the Deluxe plan.')} />
    </main>
  );
}

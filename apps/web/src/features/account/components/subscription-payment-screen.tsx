import { useTranslation } from '../../../lib/i18n.ts';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useAccountDetails } from '../../../lib/account-details.ts';
import { memberPublishableKey, usePlans, useSubscribe } from '../api/wallet.ts';
import { useMoney } from '../../../lib/money.ts';
import cardProvider from '../assets/card-provider.svg';
import { ExpressPay } from '../../../components/payments/express-pay.tsx';
import { CardNeeded, Declined, PaymentScreen, usePayment } from './payment-parts.tsx';

/**
 * The spec's subscription payment page: back link to /subscription and a card-provider image.
 * Pressing the image charges Deluxe to the default card, once, and only then opens 'Success!'.
 */
export function SubscriptionPaymentScreen() {
  const { t } = useTranslation();
  const details = useAccountDetails({ fresh: true });
  const money = useMoney();
  const plans = usePlans();
  const subscribe = useSubscribe();
  const payment = usePayment(subscribe.mutateAsync, (err) => (err instanceof ApiError ? err.message : String(err)));
  const deluxe = plans.data?.find((p) => p.Code === 'deluxe');
  const card = details.data?.DefaultCard;

  const pay = () => {
    if (deluxe && !subscribe.isPending) void payment.pay({ planId: deluxe.PlanId });
  };

  return (
    <PaymentScreen
      title={t('Payment')}
      back={paths.subscription}
      details={details.data}
      paid={{
        open: payment.paid,
        to: paths.homepage,
        title: t('Success!'),
        description: t('You have subscribed to the Deluxe plan.'),
      }}
    >
      <CardNeeded
        from={paths.subscriptionPayment}
        loading={details.isPending || plans.isPending}
        skeleton={<Skeleton rows={1} className="h-48 w-full" />}
        hasCard={!!card}
      >
        {() =>
          card && (
            <div className="flex flex-col items-center gap-4">
              {deluxe && (
                <p className="text-center text-sm text-slate-700">
                  {t('Deluxe: {{price}} a month, charged to {{brand}} ending {{last4}}. Press the card to pay.', {
                    price: money(deluxe.Price),
                    brand: card.Brand,
                    last4: card.Last4,
                  })}
                </p>
              )}
              {/* The spec's "press the image": the picture is the button, and its name says what it
                  pays and with which card (the picture itself says nothing to a screen reader). */}
              <button
                type="button"
                onClick={pay}
                disabled={subscribe.isPending}
                aria-busy={subscribe.isPending || undefined}
                aria-label={
                  deluxe
                    ? t('Pay {{price}} a month for Deluxe with {{brand}} ending {{last4}}', {
                        price: money(deluxe.Price),
                        brand: card.Brand,
                        last4: card.Last4,
                      })
                    : t('Pay with {{brand}} ending {{last4}}', { brand: card.Brand, last4: card.Last4 })
                }
                className="rounded-2xl transition-transform hover:scale-[1.01] focus-visible:outline-4 focus-visible:outline-brand-700 disabled:opacity-60"
              >
                <img src={cardProvider} width={320} height={200} className="h-auto w-full max-w-xs" alt="" />
              </button>
              {subscribe.isPending && <p className="text-sm text-slate-600">{t('Loading')}</p>}
              {payment.declined && <Declined reason={payment.declined} />}
              {deluxe && details.data && (
                <div className="flex w-full max-w-xs flex-col gap-2">
                  <ExpressPay
                    provider={details.data.PaymentProvider}
                    publishableKey={memberPublishableKey}
                    currency={details.data.Currency}
                    amountCents={Math.round(deluxe.Price * 100)}
                    ready={async () => !subscribe.isPending}
                    onToken={async (token) => {
                      await payment.pay({ planId: deluxe.PlanId, expressToken: token });
                    }}
                  />
                  <p className="text-center text-xs text-slate-600">
                    {t('The first month only: Deluxe renews each month from your default card.')}
                  </p>
                </div>
              )}
            </div>
          )
        }
      </CardNeeded>
    </PaymentScreen>
  );
}

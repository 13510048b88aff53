import { lazy, Suspense, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.tsx';
import type { CardSummary } from '@parkit/contract';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { paths } from '../../../config/paths.ts';
import { useAccountDetails } from '../../../lib/account-details.ts';
import { useCards, useDeleteCard } from '../api/wallet.ts';
import { SandboxCardForm } from './sandbox-card-form.tsx';
import { PaymentHeader } from './payment-parts.tsx';

// Stripe.js loads only when Stripe is the provider.
const StripeCardForm = lazy(() => import('./stripe-card-form.tsx'));

/** Where a driver may be sent back to after adding a card. */
const BACK = new Set<string>([paths.account, paths.addMoney, paths.subscription, paths.subscriptionPayment]);

/**
 * /stripepage: add a card (the sandbox's form, or Stripe Elements), choose whether it is the
 * default, then back to where the driver came from (?from=). ?replace={id} replaces that card.
 */
export function StripePageScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const from = BACK.has(params.get('from') ?? '') ? (params.get('from') as string) : paths.account;
  const replace = Number(params.get('replace')) || null;
  const details = useAccountDetails({ fresh: true });
  const cards = useCards();
  const del = useDeleteCard();
  const [makeDefault, setMakeDefault] = useState<boolean | null>(null);

  const replacing = replace ? cards.data?.find((c) => c.PaymentMethodId === replace) : undefined;
  const isDefault = makeDefault ?? true;

  const added = async (card: CardSummary) => {
    if (replacing) await del.mutateAsync(replacing.PaymentMethodId).catch(() => undefined);
    toast.success(t('Card added: {{brand}} ending {{last4}}', { brand: card.Brand, last4: card.Last4 }));
    navigate(from);
  };

  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PaymentHeader title={replacing ? t('Replace card') : t('Add card')} back={from} details={details.data} />
      <div className="flex flex-col gap-4 p-4">
        {details.isPending || cards.isPending ? (
          <Skeleton rows={2} className="h-16" />
        ) : (
          <>
            {replacing && (
              <p className="text-sm text-slate-700">
                {t('The new card replaces {{brand}} ending {{last4}}.', {
                  brand: replacing.Brand,
                  last4: replacing.Last4,
                })}
              </p>
            )}
            <label className="flex min-h-11 items-center gap-3 text-sm text-slate-800">
              <input
                type="checkbox"
                className="size-5 accent-brand-700"
                checked={isDefault}
                onChange={(e) => setMakeDefault(e.target.checked)}
              />
              {t('Use as my default card')}
            </label>
            {details.data?.PaymentProvider === 'stripe' ? (
              <Suspense fallback={<Skeleton rows={1} className="h-32" />}>
                <StripeCardForm makeDefault={isDefault} onAdded={added} />
              </Suspense>
            ) : (
              <SandboxCardForm makeDefault={isDefault} onAdded={added} />
            )}
          </>
        )}
      </div>
    </main>
  );
}

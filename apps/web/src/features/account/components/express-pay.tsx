import { lazy, Suspense, useState } from 'react';
import Wallet from 'lucide-react/icons/wallet';
import type { WalletDetails } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { useTranslation } from '../../../lib/i18n.ts';
import { tokenizeSandboxCard } from '../api/wallet.ts';

const StripeExpressCheckout = lazy(() => import('./stripe-express-checkout.tsx'));

export interface ExpressPayProps {
  provider: WalletDetails['PaymentProvider'];
  /** What the driver pays, in cents: the Express Checkout Element shows it in the wallet's sheet. */
  amountCents: number;
  currency: string;
  /** Checks the form first; false when the amount is not valid (its error shows under it). */
  ready: () => Promise<boolean>;
  /** The one-time card the wallet gave: the screen pays with it (AddMoney's ExpressToken). */
  onToken: (token: string) => Promise<void>;
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

function SandboxExpressButton({ ready, onToken }: ExpressPayProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const pay = async () => {
    if (!(await ready())) return;
    setBusy(true);
    try {
      // The test wallet's card: what Apple Pay or Google Pay hands over, a card for this payment only.
      const card = await tokenizeSandboxCard({
        Number: '4242424242424242',
        ExpMonth: 12,
        ExpYear: new Date().getFullYear() + 2,
        Cvc: '123',
      });
      await onToken(card.Token);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col gap-1">
      <p className="text-center text-xs text-slate-500">{t('Or pay in one tap')}</p>
      <Button
        variant="secondary"
        block
        loading={busy}
        onClick={() => void pay()}
        className="bg-slate-900 text-white hover:bg-slate-800"
      >
        <Wallet className="size-4" aria-hidden />
        {t('Pay with test wallet')}
      </Button>
      <p className="text-center text-xs text-slate-500">{t('Test mode: stands in for Apple Pay and Google Pay.')}</p>
    </div>
  );
}

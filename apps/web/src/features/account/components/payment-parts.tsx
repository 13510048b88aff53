import { useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import type { WalletDetails } from '@parkit/contract';
import { useIntentKey } from '../../../lib/intent-key.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { href, paths } from '../../../config/paths.ts';
import { TestModeBadge } from './test-mode-badge.tsx';

/** The title bar of a screen that takes a card: the test-mode badge while the sandbox is the provider. */
export function PaymentHeader({
  title,
  back,
  details,
}: {
  title: string;
  back: string;
  details: Pick<WalletDetails, 'PaymentProvider'> | undefined;
}) {
  return (
    <PageHeader
      title={title}
      back={back}
      action={details?.PaymentProvider === 'sandbox' ? <TestModeBadge /> : undefined}
    />
  );
}

/** No saved card yet: the way to add one, and back to `from` afterwards. */
export function NoCard({ from }: { from: string }) {
  const { t } = useTranslation();
  return (
    <section className="flex w-full flex-col items-center gap-3 rounded-2xl bg-white p-6 text-center shadow-sm">
      <p className="text-sm text-slate-700">{t('Add a payment card first')}</p>
      <ButtonLink to={href(paths.stripePage, { from })}>{t('+ Add Payment Type')}</ButtonLink>
    </section>
  );
}

/** A payment went through: said once, and OK (or closing) goes on to `to`. */
export function PaidDialog({
  open,
  to,
  title,
  description,
}: {
  open: boolean;
  to: string;
  title: string;
  description: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Dialog open={open} onOpenChange={(o) => !o && navigate(to)} title={title} description={description}>
      <Button onClick={() => navigate(to)}>{t('OK')}</Button>
    </Dialog>
  );
}

/** A screen that charges a saved card: its header, and the dialog that says the payment went through (`paid`). */
export function PaymentScreen({
  title,
  back,
  details,
  paid,
  children,
}: {
  title: string;
  back: string;
  details: Pick<WalletDetails, 'PaymentProvider'> | undefined;
  paid: { open: boolean; to: string; title: string; description: string };
  children: ReactNode;
}) {
  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PaymentHeader title={title} back={back} details={details} />
      <div className="flex flex-col gap-4 p-4">{children}</div>
      <PaidDialog {...paid} />
    </main>
  );
}

/** What needs a saved card: the screen's `skeleton` while it loads, the way to add a card while there is none (back to `from` afterwards), else `children`. */
export function CardNeeded({
  from,
  loading,
  skeleton,
  hasCard,
  children,
}: {
  from: string;
  loading: boolean;
  skeleton: ReactNode;
  hasCard: boolean;
  children: () => ReactNode;
}) {
  if (loading) return skeleton;
  return hasCard ? children() : <NoCard from={from} />;
}

/** A payment the provider refused: its reason (translated here), and what that means for the member. */
export function Declined({ reason, children }: { reason: string; children?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <p role="alert" className="w-full rounded-xl bg-red-50 p-3 text-sm font-medium text-red-700">
      {t(reason)}
      {children && <> {children}</>}
    </p>
  );
}

/**
 * One payment intent: the same Idempotency-Key for a double tap or a retry of the same request (the
 * server charges once), `paid` once it went through. `refusal` reads a failure: the reason to show
 * (nothing was charged; the next try is a new intent), or null when the screen handled it itself
 * (a form's field errors; the corrected retry keeps the key).
 */
export function usePayment<V extends { key: string }>(
  charge: (variables: V) => Promise<unknown>,
  refusal: (err: unknown) => string | null,
) {
  const intent = useIntentKey();
  const [paid, setPaid] = useState(false);
  const [declined, setDeclined] = useState<string | null>(null);
  const pay = async (body: Omit<V, 'key'>) => {
    setDeclined(null);
    try {
      // The body and its key are V: Omit<V, 'key'> and the key, which TypeScript does not join back.
      await charge({ ...body, key: intent.keyFor(body) } as V);
      intent.done();
      setPaid(true);
    } catch (err) {
      const reason = refusal(err);
      if (reason === null) return;
      intent.done();
      setDeclined(reason);
    }
  };
  return { pay, paid, declined };
}

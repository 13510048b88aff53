import { useState } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.tsx';
import CreditCard from 'lucide-react/icons/credit-card';
import Pencil from 'lucide-react/icons/pencil';
import Trash2 from 'lucide-react/icons/trash';
import type { CardSummary } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { href, paths } from '../../../config/paths.ts';
import { useCards, useDeleteCard, useSetDefaultCard } from '../api/wallet.ts';

/**
 * The spec's card block ('Account Activated' / 'Payment Card Added via Stripe', edit and delete
 * icons), one per saved card, and '+ Add Payment Type' (enabled: docs/product.md#placeholders-made-real).
 */
export function CardBlock() {
  const { t } = useTranslation();
  const cards = useCards();
  const del = useDeleteCard();
  const setDefault = useSetDefaultCard();
  const [deleting, setDeleting] = useState<CardSummary | null>(null);

  const confirmDelete = () => {
    if (!deleting) return;
    del.mutate(deleting.PaymentMethodId, {
      onSuccess: (res) => {
        toast.success(t(res.message));
        setDeleting(null);
      },
    });
  };

  if (cards.isPending) return <Skeleton rows={1} className="h-24" />;
  const list = cards.data ?? [];
  return (
    <section aria-labelledby="cards-title" className="flex flex-col gap-3">
      <h2 id="cards-title" className="sr-only">
        {t('Payment cards')}
      </h2>
      {list.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-2xl border border-dashed border-slate-300 bg-white p-5 text-center">
          <CreditCard className="size-8 text-slate-400" aria-hidden />
          <p className="text-sm text-slate-700">{t('No payment card yet. Add one to add money and buy plans.')}</p>
        </div>
      ) : (
        list.map((card) => (
          <article
            key={card.PaymentMethodId}
            className="flex items-start gap-3 rounded-2xl border border-slate-200 bg-white p-4 shadow-sm"
            data-testid="card-block"
          >
            <CreditCard className="mt-0.5 size-6 shrink-0 text-brand-700" aria-hidden />
            <div className="min-w-0 flex-1">
              <p className="font-semibold text-slate-900">{t('Account Activated')}</p>
              <p className="text-sm text-slate-600">{t('Payment Card Added via Stripe')}</p>
              <p className="mt-1 text-sm text-slate-800">
                {card.Brand} •••• {card.Last4}{' '}
                <span className="text-slate-500">
                  {String(card.ExpMonth).padStart(2, '0')}/{String(card.ExpYear).slice(-2)}
                </span>
              </p>
              {card.IsDefault ? (
                <span className="mt-1 inline-block rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-800">
                  {t('Default')}
                </span>
              ) : (
                <button
                  type="button"
                  className="mt-1 min-h-11 text-sm font-semibold text-brand-700 hover:underline disabled:opacity-60"
                  disabled={setDefault.isPending}
                  onClick={() =>
                    setDefault.mutate(card.PaymentMethodId, {
                      onSuccess: () => toast.success(t('Default card changed')),
                    })
                  }
                >
                  {t('Make default')}
                </button>
              )}
            </div>
            <ButtonLink
              to={href(paths.stripePage, { replace: card.PaymentMethodId, from: paths.account })}
              variant="ghost"
              className="size-11 !px-0"
              aria-label={t('Replace card ending {{last4}}', { last4: card.Last4 })}
            >
              <Pencil className="size-4" aria-hidden />
            </ButtonLink>
            <Button
              variant="ghost"
              className="size-11 !px-0"
              aria-label={t('Delete card ending {{last4}}', { last4: card.Last4 })}
              onClick={() => setDeleting(card)}
            >
              <Trash2 className="size-4 text-red-600" aria-hidden />
            </Button>
          </article>
        ))
      )}
      <ButtonLink to={href(paths.stripePage, { from: paths.account })} variant="secondary" block>
        {t('+ Add Payment Type')}
      </ButtonLink>
      <Dialog
        open={deleting !== null}
        onOpenChange={(open) => !open && !del.isPending && setDeleting(null)}
        title={t('Delete card?')}
        description={
          deleting
            ? `${t('The card ending {{last4}} will be removed.', { last4: deleting.Last4 })}${deleting.IsDefault ? ` ${t('It is your default card: auto-reload will be switched off.')}` : ''}`
            : undefined
        }
      >
        <Button variant="danger" loading={del.isPending} onClick={confirmDelete}>
          {t('Yes, Delete')}
        </Button>
        <Button variant="secondary" disabled={del.isPending} onClick={() => setDeleting(null)}>
          {t('Cancel')}
        </Button>
      </Dialog>
    </section>
  );
}

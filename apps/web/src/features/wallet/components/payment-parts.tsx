import { useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import type { WalletDetails } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { Dialog } from '../../../components/ui/dialog.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { href, paths } from '../../../config/paths.ts';
import { TestModeBadge } from './test-mode-badge.tsx';

/** The title bar of a screen that takes a card: the test-mode badge while the sandbox is the provider. */
export function PaymentHeader({ title, back, details }: { title: string; back: string; details: Pick<WalletDetails, 'PaymentProvider'> | undefined }) {
  return <PageHeader title={title} back={back} action={details?.PaymentProvider === 'sandbox' ? <TestModeBadge /> : undefined} />;
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
export function PaidDialog({ open, to, title, description }: { open: boolean; to: string; title: string; description: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <Dialog open={open} onOpenChange={(o) => !o && navigate(to)} title={title} description={description}>
      <Button onClick={() => navigate(to)}>{t('OK')}</Button>
    </Dialog>
  );
}

import { useState } from 'react';
import Wallet from 'lucide-react/icons/wallet';
import { Button } from '../ui/button.tsx';
import { useTranslation } from '../../lib/i18n.ts';
import { testWalletCard, tokenizeSandboxCard } from '../../lib/sandbox-tokens.ts';

export interface SandboxExpressButtonProps {
  /** Checks the screen first; false when nothing may be paid yet (its error shows on the screen). */
  ready: () => Promise<boolean>;
  /** The one-time card the test wallet gave: the screen pays with it as it pays with a card. */
  onToken: (token: string) => Promise<void>;
}

/**
 * The sandbox's stand-in for Apple Pay and Google Pay (offline, so the tests and the local demo
 * need no network): a one-time test card, handed to the screen as the real wallets hand theirs.
 * Add Money, Quick Park and the Deluxe payment show it (docs/operations.md#payments).
 */
export function SandboxExpressButton({ ready, onToken }: SandboxExpressButtonProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const pay = async () => {
    if (!(await ready())) return;
    setBusy(true);
    try {
      const card = await tokenizeSandboxCard(testWalletCard());
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

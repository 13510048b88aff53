import { useState } from 'react';
import { useTranslation } from '../../lib/i18n.ts';
import { toast } from '../../lib/toasts.tsx';
import { ApiError, errorMessage } from '../../lib/api-client.ts';
import { retryAfterText } from '../../lib/retry-after.ts';
import { useCountdown } from '../../lib/use-countdown.ts';
import { Button } from './button.tsx';

/** docs/product.md#sign-in: 30 s between two codes to one phone. */
export const RESEND_SECONDS = 30;

/**
 * "Didn't get it? Resend code" under a code field (/otp, Quick Park): offered 30 s after a code
 * went out; the server's refusal (429, the same per-phone limits for every code) says why and
 * when, and its time counts down instead of a new 30 s. `wait`: the server refused a new code
 * because one went out moments ago.
 */
export function ResendCode({ send, wait }: { send: () => Promise<unknown>; wait?: number | undefined }) {
  const { t } = useTranslation();
  const [resendAt, setResendAt] = useState(() => Date.now() + (wait ?? RESEND_SECONDS) * 1000);
  const left = useCountdown(resendAt);
  const restart = (seconds = RESEND_SECONDS) => setResendAt(Date.now() + seconds * 1000);
  const [resending, setResending] = useState(false);
  // Arriving with `wait`: the last code is still good, and the reason the countdown is short.
  const [refusal, setRefusal] = useState<string | null>(() =>
    wait ? `${t('We sent you a code moments ago: enter it below.')} ${retryAfterText(wait)}`.trim() : null,
  );

  const resend = async () => {
    setResending(true);
    setRefusal(null);
    try {
      await send();
      toast.success(t('A new code is on its way.'));
      restart();
    } catch (err) {
      if (!(err instanceof ApiError)) toast.error(t(errorMessage(null, null)));
      else if (err.status === 429) {
        // Refused: say why and when, and count down the server's time, not a new 30 s.
        setRefusal(`${t(err.message)} ${retryAfterText(err.retryAfter)}`.trim());
        if (err.retryAfter) restart(err.retryAfter);
      } else toast.error(t(err.message));
    } finally {
      setResending(false);
    }
  };

  return (
    <>
      {refusal && (
        <p role="alert" className="rounded-xl bg-amber-50 p-3 text-sm text-amber-900">
          {refusal}
        </p>
      )}
      <p className="text-center text-sm text-slate-600" aria-live="polite">
        {t("Didn't get it?")}{' '}
        <Button
          variant="ghost"
          className="min-h-9 px-2 py-1"
          disabled={left > 0}
          loading={resending}
          onClick={() => void resend()}
        >
          {left > 0 ? t('Resend code in {{seconds}} s', { seconds: left }) : t('Resend code')}
        </Button>
      </p>
    </>
  );
}

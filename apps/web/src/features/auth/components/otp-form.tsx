import { useState } from 'react';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.tsx';
import { z } from 'zod';
import { OtpCode } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { signInWithCode } from '../api/sign-in.ts';
import { sendOtp } from '../api/send-otp.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { retryAfterText } from '../../../lib/retry-after.ts';
import { CodeField } from '../../../components/ui/digit-fields.tsx';
import { useCountdown } from '../../../lib/use-countdown.ts';
import { Form } from '../../../components/ui/form.tsx';

/** docs/product.md#sign-in: 30 s between two codes to one phone. */
export const RESEND_SECONDS = 30;

const CodeForm = z.object({ code: OtpCode });
type CodeForm = z.infer<typeof CodeForm>;

export type OtpPurpose = 'register' | 'login' | 'forgot';

/**
 * The code sent to `phone` signs the driver in (grant_type=otp). After "Forgot password?" the next
 * stop is /resetpassword, which needs no second code right after this sign-in.
 */
export function OtpForm({ phone, purpose, wait }: { phone: string; purpose: OtpPurpose; wait?: number | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  // `wait`: the server refused a new code because one went out moments ago; its time counts down.
  const [resendAt, setResendAt] = useState(() => Date.now() + (wait ?? RESEND_SECONDS) * 1000);
  const left = useCountdown(resendAt);
  const restart = (seconds = RESEND_SECONDS) => setResendAt(Date.now() + seconds * 1000);
  const [resending, setResending] = useState(false);
  // Arriving with `wait`: the last code is still good, and the reason the countdown is short.
  const [refusal, setRefusal] = useState<string | null>(() =>
    wait ? `${t('We sent you a code moments ago: enter it below.')} ${retryAfterText(wait)}`.trim() : null,
  );
  const { field, handleSubmit, setError, submitting } = useSchemaForm<CodeForm>(CodeForm, { code: '' });

  const onSubmit = handleSubmit(async ({ code }) => {
    try {
      const next = await signInWithCode(phone, code);
      if (purpose === 'forgot') void navigate(paths.resetPassword, { replace: true, state: { codeless: true } });
      else void navigate(next, { replace: true });
    } catch (err) {
      showFormError(err, setError, { code: 'code', phone: 'code' });
    }
  });

  const resend = async () => {
    setResending(true);
    setRefusal(null);
    try {
      await sendOtp(phone);
      toast.success(t('A new code is on its way.'));
      restart();
    } catch (err) {
      if (!(err instanceof ApiError)) toast.error(t(errorMessage(null, null)));
      else if (err.status === 429) {
        // Refused (issue 7): say why and when, and count down the server's time, not a new 30 s.
        setRefusal(`${t(err.message)} ${retryAfterText(err.retryAfter)}`.trim());
        if (err.retryAfter) restart(err.retryAfter);
      } else toast.error(t(err.message));
    } finally {
      setResending(false);
    }
  };

  return (
    <Form
      onSubmit={onSubmit}
      submitting={submitting}
      submit={t('Verify')}
      after={
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
      }
    >
      <CodeField label={t('Verification code')} hint={t('The code expires in 10 minutes.')} {...field('code')} />
    </Form>
  );
}

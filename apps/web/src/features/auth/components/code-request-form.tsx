import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { MESSAGES, type SendCodeRequest } from '@parkit/contract';
import { href, paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { sendOtp } from '../api/send-otp.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { retryAfterText } from '../../../lib/retry-after.ts';
import { toast } from '../../../lib/toasts.tsx';
import { PhoneField } from '../../../components/ui/digit-fields.tsx';
import { Form } from '../../../components/ui/form.tsx';

export type CodePurpose = 'login' | 'forgot';

/** "Login with OTP" and "Forgot password?": a code to the phone, then /otp. */
export function CodeRequestForm({ purpose }: { purpose: CodePurpose }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { field, handleSubmit, setError, submitting } = useSchemaForm<SendCodeRequest>(
    () => import('../schemas.ts').then((m) => m.SendCodeRequest),
    {
      PhoneNumber: '',
    },
  );

  const onSubmit = handleSubmit(async ({ PhoneNumber }) => {
    const next = href(paths.otp, { phone: PhoneNumber, purpose });
    try {
      await sendOtp(PhoneNumber);
      void navigate(next);
    } catch (err) {
      // A code went out less than 30 s ago: it is still good, so go and type it; the resend
      // waits for the server's time, not a fresh 30 s.
      if (err instanceof ApiError && err.status === 429 && err.message === MESSAGES.codeTooSoon)
        void navigate(next, err.retryAfter ? { state: { wait: err.retryAfter } } : {});
      // Any other refusal says why and when to try again.
      else if (err instanceof ApiError && err.status === 429)
        toast.error(`${t(err.message)} ${retryAfterText(err.retryAfter)}`.trim());
      else showFormError(err, setError, { PhoneNumber: 'PhoneNumber' });
    }
  });

  return (
    <Form onSubmit={onSubmit} submitting={submitting} submit={t('Send code')}>
      <PhoneField label={t('Mobile Number')} placeholder={t('Enter your mobile number')} {...field('PhoneNumber')} />
    </Form>
  );
}

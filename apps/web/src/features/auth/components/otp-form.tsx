import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import type { z } from 'zod';
import { paths } from '../../../config/paths.ts';
import { signInWithCode } from '../api/sign-in.ts';
import { sendOtp } from '../api/send-otp.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { CodeField } from '../../../components/ui/digit-fields.tsx';
import { Form } from '../../../components/ui/form.tsx';
import { ResendCode } from '../../../components/ui/resend-code.tsx';
import type { CodeForm as CodeSchema } from '../schemas.ts';

type CodeForm = z.infer<typeof CodeSchema>;

export type OtpPurpose = 'register' | 'login' | 'forgot';

/**
 * The code sent to `phone` signs the driver in (grant_type=otp). After "Forgot password?" the next
 * stop is /resetpassword, which needs no second code right after this sign-in.
 */
export function OtpForm({ phone, purpose, wait }: { phone: string; purpose: OtpPurpose; wait?: number | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { field, handleSubmit, setError, submitting } = useSchemaForm<CodeForm>(
    () => import('../schemas.ts').then((m) => m.CodeForm),
    { code: '' },
  );

  const onSubmit = handleSubmit(async ({ code }) => {
    try {
      const next = await signInWithCode(phone, code);
      if (purpose === 'forgot') void navigate(paths.resetPassword, { replace: true, state: { codeless: true } });
      else void navigate(next, { replace: true });
    } catch (err) {
      showFormError(err, setError, { code: 'code', phone: 'code' });
    }
  });

  return (
    <Form
      onSubmit={onSubmit}
      submitting={submitting}
      submit={t('Verify')}
      after={<ResendCode send={() => sendOtp(phone)} wait={wait} />}
    >
      <CodeField label={t('Verification code')} hint={t('The code expires in 10 minutes.')} {...field('code')} />
    </Form>
  );
}

import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { Link, useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.tsx';
import { z } from 'zod';
import { MESSAGES, OtpCode, Password } from '@parkit/contract';
import { paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { resetPassword } from '../api/reset-password.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { CodeField } from '../../../components/ui/digit-fields.tsx';
import { NewPasswordField, PasswordField } from '../../../components/ui/password-field.tsx';
import { Form } from '../../../components/ui/form.tsx';

const MISMATCH = 'Passwords do not match';
const schema = (needsCode: boolean) =>
  z
    .object({ Code: needsCode ? OtpCode : z.string(), NewPassword: Password, ConfirmPassword: z.string() })
    .refine((d) => d.NewPassword === d.ConfirmPassword, { path: ['ConfirmPassword'], message: MISMATCH });
type ResetFields = { Code: string; NewPassword: string; ConfirmPassword: string };

/**
 * The new password, with the code from /forgot; right after a sign-in with a code (the
 * "Forgot password?" path) the server needs none, and `needsCode` is false.
 */
export function ResetPasswordForm({ needsCode, onCodeNeeded }: { needsCode: boolean; onCodeNeeded: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { field, handleSubmit, setError, submitting } = useSchemaForm<ResetFields>(schema(needsCode), {
    Code: '',
    NewPassword: '',
    ConfirmPassword: '',
  });

  const onSubmit = handleSubmit(async ({ Code, NewPassword }) => {
    try {
      await resetPassword(needsCode ? { Code, NewPassword } : { NewPassword });
      toast.success(t(MESSAGES.passwordChanged));
      void navigate(paths.homepage, { replace: true });
    } catch (err) {
      // The code-less window (10 minutes after the code sign-in) has passed: ask for a code.
      if (!needsCode && err instanceof ApiError && err.fieldMessage('Code')) onCodeNeeded();
      else showFormError(err, setError, { Code: 'Code', NewPassword: 'NewPassword' });
    }
  });

  return (
    <Form onSubmit={onSubmit} submitting={submitting} submit={t('Save Password')}>
      {needsCode && (
        <>
          <CodeField label={t('Verification code')} {...field('Code')} />
          <Link to={paths.forgot} className="-mt-2 self-end text-sm font-semibold text-brand-700 hover:underline">
            {t('Send me a new code')}
          </Link>
        </>
      )}
      <NewPasswordField label={t('New Password')} {...field('NewPassword')} />
      <PasswordField label={t('Confirm New Password')} autoComplete="new-password" {...field('ConfirmPassword')} />
    </Form>
  );
}

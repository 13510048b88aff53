import { useState } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { toast } from 'sonner';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { paths } from '../../../config/paths.ts';
import { useSession } from '../../../lib/session.ts';
import { GuestPasswordNotice } from './guest-notice.tsx';
import { ResetPasswordForm } from './reset-password-form.tsx';

/** /resetpassword (protected). `state.codeless` is set by /otp on the "Forgot password?" path. */
export function ResetPasswordScreen() {
  const { t } = useTranslation();
  const location = useLocation();
  const codeless = (location.state as { codeless?: boolean } | null)?.codeless === true;
  const [needsCode, setNeedsCode] = useState(!codeless);
  const member = Boolean(useSession().token);

  const codeNeeded = () => {
    toast.error(t('Please enter a code from your phone. Tap "Send me a new code" to get one.'));
    setNeedsCode(true);
  };

  return (
    <main className="flex flex-1 flex-col">
      <PageHeader title={t('Reset Password')} back={paths.profile} />
      {member ? (
        <section className="flex flex-col gap-5 p-6">
          <p className="text-sm text-slate-600">
            {needsCode ? t('Enter the code we texted you and choose a new password.') : t('You are signed in. Choose a new password.')}
          </p>
          <ResetPasswordForm key={String(needsCode)} needsCode={needsCode} onCodeNeeded={codeNeeded} />
        </section>
      ) : (
        <GuestPasswordNotice />
      )}
    </main>
  );
}

import { useState } from 'react';
import { useLocation } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.tsx';
import { PasswordScreen } from './password-screen.tsx';
import { ResetPasswordForm } from './reset-password-form.tsx';

/** /resetpassword (protected). `state.codeless` is set by /otp on the "Forgot password?" path. */
export function ResetPasswordScreen() {
  const { t } = useTranslation();
  const location = useLocation();
  const codeless = (location.state as { codeless?: boolean } | null)?.codeless === true;
  const [needsCode, setNeedsCode] = useState(!codeless);

  const codeNeeded = () => {
    toast.error(t('Please enter a code from your phone. Tap "Send me a new code" to get one.'));
    setNeedsCode(true);
  };

  return (
    <PasswordScreen title={t('Reset Password')}>
      <p className="text-sm text-slate-600">
        {needsCode
          ? t('Enter the code we texted you and choose a new password.')
          : t('You are signed in. Choose a new password.')}
      </p>
      <ResetPasswordForm key={String(needsCode)} needsCode={needsCode} onCodeNeeded={codeNeeded} />
    </PasswordScreen>
  );
}

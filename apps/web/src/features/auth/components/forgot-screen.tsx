import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.tsx';
import MessageSquareText from 'lucide-react/icons/message-square-text';
import { MESSAGES } from '@parkit/contract';
import { Button } from '../../../components/ui/button.tsx';
import { paths } from '../../../config/paths.ts';
import { ApiError, errorMessage } from '../../../lib/api-client.ts';
import { useSession } from '../../../lib/session.ts';
import { requestResetCode } from '../api/reset-password.ts';
import { PasswordScreen } from './password-screen.tsx';

/** /forgot (protected): a signed-in member asks for a reset code, then sets the password on /resetpassword. */
export function ForgotScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [sending, setSending] = useState(false);
  const phone = useSession().user?.PhoneNumber ?? '';

  const send = async () => {
    setSending(true);
    try {
      await requestResetCode();
      void navigate(paths.resetPassword);
    } catch (err) {
      // A code sent less than 30 s ago is still good: go and use it.
      if (err instanceof ApiError && err.status === 429 && err.message === MESSAGES.codeTooSoon)
        void navigate(paths.resetPassword);
      else toast.error(t(err instanceof ApiError ? err.message : errorMessage(null, null)));
    } finally {
      setSending(false);
    }
  };

  return (
    <PasswordScreen title={t('Change Password')}>
      <div className="flex items-start gap-3 rounded-2xl bg-brand-50 p-4 text-sm text-slate-700">
        <MessageSquareText className="mt-0.5 size-5 shrink-0 text-brand-700" aria-hidden />
        <p>
          {phone
            ? t('We will text a 6-digit code to your mobile number ending in {{last4}}.', { last4: phone.slice(-4) })
            : t('We will text a 6-digit code to your mobile number.')}{' '}
          {t('Enter it on the next screen with your new password.')}
        </p>
      </div>
      <Button block loading={sending} onClick={() => void send()}>
        {t('Send code')}
      </Button>
    </PasswordScreen>
  );
}

import { Navigate, useLocation, useSearchParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { href, paths } from '../../../config/paths.ts';
import { AuthScreen } from './auth-screen.tsx';
import { OtpForm, type OtpPurpose } from './otp-form.tsx';

const purposeOf = (v: string | null): OtpPurpose => (v === 'register' || v === 'forgot' ? v : 'login');

/** /otp?phone=…&purpose=register|login|forgot: the 6-digit code that was just sent. */
export function OtpScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  // Set by the code request when the server said a code went out moments ago (its Retry-After).
  const wait = (useLocation().state as { wait?: number } | null)?.wait;
  const phone = params.get('phone') ?? '';
  const purpose = purposeOf(params.get('purpose'));
  // Without a number there is no code to type: ask for one.
  if (!/^\d{10,15}$/.test(phone)) return <Navigate to={href(paths.login, { mode: 'otp' })} replace />;

  const title = {
    register: t('Verify your mobile number'),
    login: t('Enter your code'),
    forgot: t('Reset your password'),
  }[purpose];
  const back =
    purpose === 'register' ? paths.register : href(paths.login, { mode: purpose === 'forgot' ? 'forgot' : 'otp' });
  const masked = `•••• ${phone.slice(-4)}`;

  return (
    <AuthScreen
      title={title}
      subtitle={t('Enter the 6-digit code we sent to {{phone}}.', { phone: masked })}
      back={back}
    >
      <OtpForm phone={phone} purpose={purpose} wait={wait} />
      {purpose === 'forgot' && (
        <p className="text-center text-xs text-slate-500">{t('After this you will choose a new password.')}</p>
      )}
    </AuthScreen>
  );
}

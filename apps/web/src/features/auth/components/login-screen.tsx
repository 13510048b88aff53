import { Link, useNavigate, useSearchParams } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import KeyRound from 'lucide-react/icons/key-round';
import MessageSquareText from 'lucide-react/icons/message-square-text';
import { href, paths } from '../../../config/paths.ts';
import { continueAsGuest, endedSessionPath } from '../../../lib/session-store.ts';
import { AuthFooterLink, AuthScreen } from './auth-screen.tsx';
import { CodeRequestForm } from './code-request-form.tsx';
import { PasswordLoginForm } from './password-login-form.tsx';

type Mode = 'password' | 'otp' | 'forgot';
const modeOf = (v: string | null): Mode => (v === 'otp' || v === 'forgot' ? v : 'password');

const altLink =
  'inline-flex min-h-11 items-center gap-2 text-sm font-semibold text-brand-700 hover:underline underline-offset-2';

/**
 * /login (docs/product.md#sign-in). ?mode=otp signs in with a code to the phone; ?mode=forgot does
 * the same and then asks for a new password (/forgot itself is for signed-in members).
 */
export function LoginScreen() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const mode = modeOf(params.get('mode'));
  const ended = endedSessionPath() !== null;

  const title = { password: t('Welcome back'), otp: t('Login with OTP'), forgot: t('Forgot password?') }[mode];
  const subtitle = {
    password: t('Sign in to park, pay and see your sessions.'),
    otp: t('We will text a 6-digit code to your mobile number.'),
    forgot: t('No problem: sign in with a code sent to your mobile number, then choose a new password.'),
  }[mode];

  return (
    <AuthScreen title={title} subtitle={subtitle} back={mode === 'password' ? paths.parkit : paths.login}>
      <p role="status" className={ended ? 'rounded-xl bg-amber-50 p-3 text-sm text-amber-900' : 'sr-only'}>
        {ended && t('Your session has ended. Sign in again to continue where you left off.')}
      </p>
      {mode === 'password' ? (
        <>
          <PasswordLoginForm />
          <div className="flex flex-wrap items-center justify-between gap-2">
            <Link to={href(paths.login, { mode: 'otp' })} className={altLink}>
              <MessageSquareText className="size-4" aria-hidden />
              {t('Login with OTP')}
            </Link>
            <Link to={href(paths.login, { mode: 'forgot' })} className={altLink}>
              <KeyRound className="size-4" aria-hidden />
              {t('Forgot password?')}
            </Link>
          </div>
        </>
      ) : (
        <>
          <CodeRequestForm key={mode} purpose={mode === 'otp' ? 'login' : 'forgot'} />
          <Link to={paths.login} className={`${altLink} self-center`}>
            {t('Login with password')}
          </Link>
        </>
      )}
      <div className="mt-auto flex flex-col gap-3 border-t border-slate-100 pt-5">
        <AuthFooterLink text={t("Don't have an account?")} to={paths.register} label={t('Register')} />
        <button
          type="button"
          onClick={() => void navigate(continueAsGuest())}
          className="min-h-11 text-sm font-medium text-slate-600 underline-offset-2 hover:underline"
        >
          {t('Continue as guest')}
        </button>
      </div>
    </AuthScreen>
  );
}

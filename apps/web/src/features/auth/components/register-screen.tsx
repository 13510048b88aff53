import { useTranslation } from '../../../lib/i18n.ts';
import { paths } from '../../../config/paths.ts';
import { AuthFooterLink, AuthScreen } from './auth-screen.tsx';
import { RegisterForm } from './register-form.tsx';

/** /register (docs/product.md#sign-in): the account, then a code to the phone on /otp. */
export function RegisterScreen() {
  const { t } = useTranslation();
  return (
    <AuthScreen
      title={t('Create your account')}
      subtitle={t('It takes a minute. Your mobile number keeps it safe.')}
      back={paths.parkit}
    >
      <RegisterForm />
      <AuthFooterLink text={t('Already have an account?')} to={paths.login} label={t('Login')} />
    </AuthScreen>
  );
}

import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { UsernameField } from '../../../components/ui/field.tsx';
import { signInWithPassword } from '../api/sign-in.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { PasswordField } from '../../../components/ui/password-field.tsx';
import { Form } from '../../../components/ui/form.tsx';

type LoginFields = { username: string; password: string };

/** /login: username or email and password, then /addvehicles or /homepage. */
export function PasswordLoginForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { field, handleSubmit, setError, submitting } = useSchemaForm<LoginFields>(
    () => import('../schemas.ts').then((m) => m.LoginFields),
    {
      username: '',
      password: '',
    },
  );

  const onSubmit = handleSubmit(async ({ username, password }) => {
    try {
      void navigate(await signInWithPassword(username, password), { replace: true });
    } catch (err) {
      showFormError(err, setError, { username: 'username', password: 'password' });
    }
  });

  return (
    <Form onSubmit={onSubmit} submitting={submitting} submit={t('Login')}>
      <UsernameField label={t('Username or Email')} {...field('username')} />
      <PasswordField label={t('Password')} autoComplete="current-password" {...field('password')} />
    </Form>
  );
}

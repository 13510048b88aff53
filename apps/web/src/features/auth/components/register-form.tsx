import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { useNavigate } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import type { RegisterRequest } from '@parkit/contract';
import { TextField, UsernameField } from '../../../components/ui/field.tsx';
import { href, paths } from '../../../config/paths.ts';
import { register as registerAccount } from '../api/register.ts';
import { showFormError } from '../../../lib/form-errors.ts';
import { NewPasswordField } from '../../../components/ui/password-field.tsx';
import { PhoneField } from '../../../components/ui/digit-fields.tsx';
import { Form } from '../../../components/ui/form.tsx';

const FIELDS = ['FirstName', 'LastName', 'UserName', 'EmailAddress', 'PhoneNumber', 'Password'] as const;
const empty: RegisterRequest = {
  FirstName: '',
  LastName: '',
  UserName: '',
  EmailAddress: '',
  PhoneNumber: '',
  Password: '',
};

/** /register: the server's own schema checks the form; a 409 names the field already taken. */
export function RegisterForm() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { field, handleSubmit, setError, submitting } = useSchemaForm<RegisterRequest>(
    () => import('../schemas.ts').then((m) => m.RegisterRequest),
    empty,
  );

  const onSubmit = handleSubmit(async (data) => {
    try {
      await registerAccount(data);
      void navigate(href(paths.otp, { phone: data.PhoneNumber, purpose: 'register' }));
    } catch (err) {
      showFormError(err, setError, Object.fromEntries(FIELDS.map((f) => [f, f])));
    }
  });

  return (
    <Form onSubmit={onSubmit} submitting={submitting} submit={t('Register')}>
      <div className="grid grid-cols-2 gap-3">
        <TextField label={t('First Name')} autoComplete="given-name" {...field('FirstName')} />
        <TextField label={t('Last Name')} autoComplete="family-name" {...field('LastName')} />
      </div>
      <UsernameField label={t('Username')} {...field('UserName')} />
      <TextField label={t('Email')} type="email" autoComplete="email" {...field('EmailAddress')} />
      <PhoneField
        label={t('Mobile Number')}
        hint={t('We will text you a code to verify it.')}
        {...field('PhoneNumber')}
      />
      <NewPasswordField label={t('Password')} {...field('Password')} />
    </Form>
  );
}

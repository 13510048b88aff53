import { useState } from 'react';
import Eye from 'lucide-react/icons/eye';
import EyeOff from 'lucide-react/icons/eye-off';
import { useTranslation } from '../../lib/i18n.ts';
import { controlClass, FieldShell, type TextFieldProps } from './field.tsx';

/** A password with a show/hide toggle (phones make typos easy). */
export function PasswordField({ label, error, hint, className = '', ref, ...rest }: TextFieldProps) {
  const { t } = useTranslation();
  const [shown, setShown] = useState(false);
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {({ id, describedBy }) => (
        <div className="relative">
          <input
            id={id}
            ref={ref}
            type={shown ? 'text' : 'password'}
            aria-invalid={error ? true : undefined}
            aria-describedby={describedBy}
            className={`${controlClass} pe-12 ${className}`}
            {...rest}
          />
          <button
            type="button"
            onClick={() => setShown((s) => !s)}
            aria-label={shown ? t('Hide password') : t('Show password')}
            aria-pressed={shown}
            className="absolute inset-y-0 inset-e-0 grid w-12 place-items-center rounded-e-xl text-slate-500 hover:text-slate-800"
          >
            {shown ? <EyeOff className="size-5" aria-hidden /> : <Eye className="size-5" aria-hidden />}
          </button>
        </div>
      )}
    </FieldShell>
  );
}

/** A password being chosen: the browser may offer a new one, and the rule is said below it. */
export function NewPasswordField(props: TextFieldProps) {
  const { t } = useTranslation();
  return <PasswordField autoComplete="new-password" hint={t('At least 8 characters.')} {...props} />;
}

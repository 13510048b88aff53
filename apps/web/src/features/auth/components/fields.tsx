import { useState, type ChangeEvent, type InputHTMLAttributes, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { acceptsDigitKey } from '@parkit/contract';
import { FieldShell, TextField } from '../../../components/ui/field.tsx';

const control =
  'min-h-11 w-full rounded-xl border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-400 aria-[invalid=true]:border-red-500';

interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/** A password with a show/hide toggle (phones make typos easy). */
export function PasswordField({ label, error, hint, className = '', ref, ...rest }: InputProps) {
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
            className={`${control} pr-12 ${className}`}
            {...rest}
          />
          <button
            type="button"
            onClick={() => setShown((s) => !s)}
            aria-label={shown ? t('Hide password') : t('Show password')}
            aria-pressed={shown}
            className="absolute inset-y-0 right-0 grid w-12 place-items-center rounded-r-xl text-slate-500 hover:text-slate-800"
          >
            {shown ? <EyeOff className="size-5" aria-hidden /> : <Eye className="size-5" aria-hidden />}
          </button>
        </div>
      )}
    </FieldShell>
  );
}

/** Keeps digits only, whatever was typed or pasted, before the form reads the value. */
function digitsOnly(onChange: InputProps['onChange']) {
  return (e: ChangeEvent<HTMLInputElement>) => {
    const clean = e.target.value.replace(/\D/g, '');
    if (clean !== e.target.value) e.target.value = clean;
    onChange?.(e);
  };
}

/** Spec section 9: digit-only inputs refuse a key once the field holds more than 11 characters. */
function refuseNonDigits(e: KeyboardEvent<HTMLInputElement>) {
  if (e.ctrlKey || e.metaKey || e.altKey) return; // copy, paste, select all
  if (!acceptsDigitKey(e.currentTarget.value, e.key)) e.preventDefault();
}

/** A mobile number: digits only (spec section 5), numeric keypad on phones. */
export function PhoneField({ onChange, ...rest }: InputProps) {
  return (
    <TextField
      type="tel"
      inputMode="numeric"
      autoComplete="tel-national"
      onKeyDown={refuseNonDigits}
      onChange={digitsOnly(onChange)}
      {...rest}
    />
  );
}

/** The 6-digit code; phones offer the code from the SMS (one-time-code). */
export function CodeField({ onChange, className = '', ...rest }: InputProps) {
  return (
    <TextField
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={6}
      onChange={digitsOnly(onChange)}
      className={`text-center font-mono text-2xl tracking-[0.5em] ${className}`}
      {...rest}
    />
  );
}

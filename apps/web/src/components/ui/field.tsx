import { useId, type InputHTMLAttributes, type ReactNode, type Ref, type SelectHTMLAttributes } from 'react';
import { useTranslation } from '../../lib/i18n.ts';

interface FieldShellProps {
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
  children: (ids: { id: string; describedBy: string | undefined }) => ReactNode;
}

/** A labelled control with its error below; the error is announced and tied to the control. */
export function FieldShell({ label, error, hint, children }: FieldShellProps) {
  const { t } = useTranslation();
  const id = useId();
  const errId = `${id}-error`;
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-700">
        {label}
      </label>
      {children({ id, describedBy: error ? errId : undefined })}
      {hint && !error && <p className="text-xs text-slate-500">{hint}</p>}
      {error && (
        <p id={errId} role="alert" className="text-xs font-medium text-red-600">
          {t(error)}
        </p>
      )}
    </div>
  );
}

/** The look of every text input and select. */
export const controlClass =
  'min-h-11 w-full rounded-xl border border-slate-300 bg-white px-3 py-2 text-base text-slate-900 placeholder:text-slate-400 disabled:bg-slate-100 disabled:text-slate-500 aria-[invalid=true]:border-red-500';

export interface TextFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  /** react-hook-form's ref: lets it focus the first invalid field (`shouldFocus`). */
  ref?: Ref<HTMLInputElement> | undefined;
  label: string;
  error?: string | undefined;
  hint?: ReactNode;
}

export function TextField({ label, error, hint, className = '', ...rest }: TextFieldProps) {
  return (
    <FieldShell label={label} error={error} hint={hint}>
      {({ id, describedBy }) => (
        <input
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={`${controlClass} ${className}`}
          {...rest}
        />
      )}
    </FieldShell>
  );
}

export interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  ref?: Ref<HTMLSelectElement> | undefined;
  label: string;
  error?: string | undefined;
  /** The first, empty option ('Select State', …). */
  placeholder: string;
  options: ReadonlyArray<{ value: string; label: string }>;
}

export function SelectField({ label, error, placeholder, options, className = '', ...rest }: SelectFieldProps) {
  return (
    <FieldShell label={label} error={error}>
      {({ id, describedBy }) => (
        <select
          id={id}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy}
          className={`${controlClass} ${className}`}
          {...rest}
        >
          <option value="">{placeholder}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  );
}

/** A username (or an email) as typed: the phone neither capitalises nor corrects it. */
export function UsernameField(props: TextFieldProps) {
  return <TextField autoComplete="username" autoCapitalize="none" spellCheck={false} {...props} />;
}

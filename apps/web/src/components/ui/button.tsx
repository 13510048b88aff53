import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { LoaderCircle } from 'lucide-react';
import { useTranslation } from 'react-i18next';

export type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

const variants: Record<Variant, string> = {
  primary: 'bg-brand-700 text-white hover:bg-brand-800 disabled:bg-brand-700/60',
  secondary: 'bg-white text-brand-800 ring-1 ring-brand-700 hover:bg-brand-50 disabled:opacity-60',
  ghost: 'bg-transparent text-brand-800 hover:bg-brand-50 disabled:opacity-60',
  danger: 'bg-red-600 text-white hover:bg-red-700 disabled:bg-red-600/60',
};

/** The look of a button, shared with ButtonLink (a link that looks like a button). */
export function buttonClass(variant: Variant = 'primary', block = false, className = '') {
  return `inline-flex min-h-11 items-center justify-center gap-2 rounded-xl px-4 py-2.5 text-center text-sm font-semibold transition-colors disabled:cursor-not-allowed ${variants[variant]} ${block ? 'w-full' : ''} ${className}`;
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** Spec section 4: a button whose request runs shows a loader and is disabled. */
  loading?: boolean;
  variant?: Variant;
  block?: boolean;
  children: ReactNode;
}

export function Button({ loading = false, variant = 'primary', block = false, className = '', disabled, children, type = 'button', ...rest }: ButtonProps) {
  const { t } = useTranslation();
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={buttonClass(variant, block, className)}
      {...rest}
    >
      {loading && <LoaderCircle aria-label={t('Loading')} className="size-4 animate-spin" />}
      {children}
    </button>
  );
}

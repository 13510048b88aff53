import type { ButtonHTMLAttributes, ReactNode } from 'react';
import LoaderCircle from 'lucide-react/icons/loader-circle';
import { useTranslation } from '../../lib/i18n.ts';

export type Variant = 'primary' | 'secondary' | 'ghost' | 'danger';

const variants: Record<Variant, string> = {
  primary: 'bg-brand-700 text-white hover:bg-brand-800 disabled:bg-brand-700/60',
  secondary: 'bg-white text-brand-800 ring-1 ring-brand-700 hover:bg-brand-50 disabled:opacity-60',
  ghost: 'bg-transparent text-brand-800 hover:bg-brand-50 disabled:opacity-60',
  danger: 'bg-red-600 text-white hover:bg-red-700 disabled:bg-red-600/60',
};

/** sm: a card's small action; md: most buttons; lg: a screen's main action; xl: the home page's Park Now. */
export type Size = 'sm' | 'md' | 'lg' | 'xl';

const sizes: Record<Size, string> = {
  sm: 'min-h-9 gap-1 rounded-lg px-3 py-1.5 text-xs font-bold tracking-wide',
  md: 'min-h-11 gap-2 rounded-xl px-4 py-2.5 text-sm font-semibold',
  lg: 'min-h-12 gap-2 rounded-xl px-4 py-2.5 text-base font-semibold',
  xl: 'min-h-16 gap-3 rounded-2xl px-4 py-2.5 text-lg font-bold',
};

/** The look of a button, shared with ButtonLink (a link that looks like a button). */
export function buttonClass(variant: Variant = 'primary', block = false, className = '', size: Size = 'md') {
  return `inline-flex items-center justify-center text-center transition-colors disabled:cursor-not-allowed ${sizes[size]} ${variants[variant]} ${block ? 'w-full' : ''} ${className}`;
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** docs/product.md#states: a button whose request runs shows a loader and is disabled. */
  loading?: boolean;
  variant?: Variant;
  size?: Size;
  block?: boolean;
  children: ReactNode;
}

export function Button({
  loading = false,
  variant = 'primary',
  size = 'md',
  block = false,
  className = '',
  disabled,
  children,
  type = 'button',
  ...rest
}: ButtonProps) {
  const { t } = useTranslation();
  return (
    <button
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={buttonClass(variant, block, className, size)}
      {...rest}
    >
      {loading && <LoaderCircle aria-label={t('Loading')} className="size-4 animate-spin" />}
      {children}
    </button>
  );
}

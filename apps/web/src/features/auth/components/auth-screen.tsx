import type { ReactNode } from 'react';
import ArrowLeft from 'lucide-react/icons/arrow-left';
import { Link } from 'react-router';
import { useTranslation } from '../../../lib/i18n.ts';
import { LanguageMenu } from '../../../components/ui/language-menu.tsx';

/** The ParkIt mark: a white P on the brand colour. */
export function BrandMark({ size = 'md' }: { size?: 'md' | 'lg' }) {
  const box = size === 'lg' ? 'size-20 text-5xl rounded-3xl' : 'size-12 text-3xl rounded-2xl';
  return (
    <span
      aria-hidden
      className={`grid place-items-center bg-white font-black text-brand-700 shadow-lg shadow-brand-900/20 ${box}`}
    >
      P
    </span>
  );
}

interface AuthScreenProps {
  title: string;
  subtitle?: ReactNode;
  /** A back arrow to this route. */
  back?: string;
  children: ReactNode;
}

/** Sign-up and sign-in screens: a branded band with the title, the form on a white sheet below. */
export function AuthScreen({ title, subtitle, back, children }: AuthScreenProps) {
  const { t } = useTranslation();
  return (
    <main className="flex min-h-dvh flex-1 flex-col bg-brand-700">
      <div className="relative flex flex-col items-center gap-3 px-6 pt-10 pb-8 text-center text-white">
        {back && (
          <Link
            to={back}
            aria-label={t('Back')}
            className="absolute top-3 inset-s-2 grid size-11 place-items-center rounded-full hover:bg-white/10"
          >
            <ArrowLeft className="size-5" aria-hidden />
          </Link>
        )}
        <LanguageMenu />
        <BrandMark />
        <h1 className="text-2xl font-bold">{title}</h1>
        {subtitle && <p className="max-w-xs text-sm text-brand-50/90">{subtitle}</p>}
      </div>
      <div className="flex flex-1 flex-col gap-5 rounded-t-3xl bg-white px-6 pt-8 pb-10">{children}</div>
    </main>
  );
}

/** A quiet line of text with a link, under a form ("No account yet? Register"). */
export function AuthFooterLink({ text, to, label }: { text: string; to: string; label: string }) {
  return (
    <p className="text-center text-sm text-slate-600">
      {text}{' '}
      <Link to={to} className="font-semibold text-brand-700 underline-offset-2 hover:underline">
        {label}
      </Link>
    </p>
  );
}

import ArrowLeft from 'lucide-react/icons/arrow-left';
import { Link } from 'react-router';
import { useTranslation } from '../../lib/i18n.ts';
import type { ReactNode } from 'react';

/** A screen's title bar; with `back`, an arrow link to that route. */
export function PageHeader({ title, back, action }: { title: string; back?: string | undefined; action?: ReactNode }) {
  const { t } = useTranslation();
  return (
    <header className="sticky top-0 z-10 flex min-h-14 items-center gap-2 bg-brand-700 px-2 text-white">
      {back ? (
        <Link
          to={back}
          aria-label={t('Back')}
          className="grid size-11 place-items-center rounded-full hover:bg-white/10"
        >
          <ArrowLeft className="size-5" aria-hidden />
        </Link>
      ) : (
        <span className="w-2" />
      )}
      {/* A long title (Spanish runs a third longer) wraps onto a second line, never cut. */}
      <h1 className="min-w-0 flex-1 py-2 text-lg leading-snug font-bold text-balance">{title}</h1>
      {action}
    </header>
  );
}

import { useTranslation } from '../../lib/i18n.ts';
import { Button } from './button.tsx';

export interface LoadErrorProps {
  /** Already translated: what could not be loaded. */
  message: string;
  onRetry: () => void;
  /** The retry's request is running. */
  retrying?: boolean;
  /** A short, left-aligned form for use inside a card. */
  compact?: boolean;
}

/** A load that failed: said once to assistive technology, with a way to try again. */
export function LoadError({ message, onRetry, retrying = false, compact = false }: LoadErrorProps) {
  const { t } = useTranslation();
  return (
    <div
      role="alert"
      className={
        compact
          ? 'flex flex-col items-start gap-2 py-2 text-sm text-slate-600'
          : 'flex flex-col items-center gap-3 rounded-2xl border border-red-200 bg-red-50 p-5 text-center text-sm text-red-900'
      }
    >
      <p>{message}</p>
      <Button variant="secondary" loading={retrying} onClick={onRetry}>
        {t('Try again')}
      </Button>
    </div>
  );
}

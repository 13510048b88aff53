import { useTranslation } from '../../../lib/i18n.ts';
import FlaskConical from 'lucide-react/icons/flask-conical';

/** Shown while the offline sandbox is the payment provider: no real money moves. */
export function TestModeBadge() {
  const { t } = useTranslation();
  return (
    <span
      className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2.5 py-1 text-xs font-semibold text-amber-900"
      data-testid="test-mode"
    >
      <FlaskConical className="size-3.5" aria-hidden />
      {t('Test mode')}
    </span>
  );
}

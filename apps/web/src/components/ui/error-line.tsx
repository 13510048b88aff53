import { useTranslation } from '../../lib/i18n.ts';
import { ApiError } from '../../lib/api-client.ts';

/**
 * A request's failure as one line under what it refused: the server's own message (an ApiError,
 * from the spec's catalogue, translated), else `fallback` (already translated). Nothing while there
 * is no error.
 */
export function ErrorLine({ error, fallback }: { error: unknown; fallback: string }) {
  const { t } = useTranslation();
  if (!error) return null;
  return (
    <p role="alert" className="text-sm text-red-800">
      {error instanceof ApiError ? t(error.message) : fallback}
    </p>
  );
}

import { useTranslation } from '../../../lib/i18n.ts';
import { Button } from '../../../components/ui/button.tsx';

/** 'Load earlier messages' above a conversation that has more than one page. */
export function LoadEarlier({
  older,
}: {
  older: { hasMore: boolean; loading: boolean; failed: boolean; loadMore: () => Promise<void> };
}) {
  const { t } = useTranslation();
  if (!older.hasMore) return null;
  return (
    <div className="flex flex-col items-center gap-1">
      <Button variant="ghost" loading={older.loading} onClick={() => void older.loadMore()}>
        {t('Load earlier messages')}
      </Button>
      {older.failed && (
        <p role="alert" className="text-xs text-red-700">
          {t('Earlier messages could not be loaded.')}
        </p>
      )}
    </div>
  );
}

import { useTranslation } from '../../lib/i18n.ts';
import { useOnline } from '../../lib/online.ts';

/**
 * Above every screen while the device is offline: that it is, and what still works. What was
 * loaded stays on screen; what needs the server waits and runs again when the connection is back
 * (docs/architecture.md#offline).
 */
export function OfflineBanner() {
  const { t } = useTranslation();
  if (useOnline()) return null;
  return (
    <div role="status" className="sticky top-0 z-40 bg-slate-800 px-4 py-2 text-sm text-white">
      <p className="font-semibold">{t("You're offline")}</p>
      <p>
        {t(
          'Your active parking, its proof of payment and your receipts still open. Paying, extending and searching wait for the connection and try again when it is back.',
        )}
      </p>
    </div>
  );
}

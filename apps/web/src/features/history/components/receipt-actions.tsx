import Download from 'lucide-react/icons/download';
import RotateCcw from 'lucide-react/icons/rotate-ccw';
import { useTranslation } from '../../../lib/i18n.ts';
import { Button } from '../../../components/ui/button.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';
import { href, paths } from '../../../config/paths.ts';
import { useDownload } from '../../../lib/use-download.ts';

/** Under a past session's summary: its receipt as a PDF (in the app's language), and park there again. */
export function ReceiptActions({ sessionId, zoneId }: { sessionId: number; zoneId: number }) {
  const { t, i18n } = useTranslation();
  const { busy, download } = useDownload(t('The receipt could not be downloaded.'));
  const lang = i18n.language;
  return (
    <div className="flex flex-col gap-2">
      <Button
        variant="secondary"
        size="lg"
        block
        loading={busy}
        onClick={() =>
          download(`/api/Parking/Session/${sessionId}/Receipt.pdf?lang=${lang}`, `parkit-receipt-${sessionId}.pdf`)
        }
      >
        {!busy && <Download className="size-4" aria-hidden />}
        {t('Download receipt (PDF)')}
      </Button>
      <ButtonLink to={href(paths.confirmLocation, { zone: zoneId })} size="lg" block>
        <RotateCcw className="size-4" aria-hidden />
        {t('Park here again')}
      </ButtonLink>
    </div>
  );
}

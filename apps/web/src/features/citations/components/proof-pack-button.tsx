import Download from 'lucide-react/icons/download';
import { useTranslation } from '../../../lib/i18n.ts';
import { useDownload } from '../../../lib/use-download.ts';
import { Button } from '../../../components/ui/button.tsx';
import { proofPackUrl } from '../api/citations.ts';

/**
 * Beside Contest: the citation's proof pack as a PDF in the app's language (ParkIt's records of
 * the plate that day: sessions, permits, visitor days, plate checks; docs/citations.md#the-proof-pack).
 */
export function ProofPackButton({ citationId }: { citationId: number }) {
  const { t, i18n } = useTranslation();
  const { busy, download } = useDownload(t('The proof pack could not be downloaded.'));
  return (
    <Button
      variant="secondary"
      loading={busy}
      onClick={() => download(proofPackUrl(citationId, i18n.language), `parkit-proof-pack-${citationId}.pdf`)}
    >
      {!busy && <Download className="size-4" aria-hidden />}
      {t('Download proof pack')}
    </Button>
  );
}

import { Download, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { toast } from 'sonner';
import { Button } from '../../../components/ui/button.tsx';
import { href, paths } from '../../../config/paths.ts';
import { downloadFile } from '../api/download-file.ts';

/** Under a past session's summary: its receipt as a PDF (in the app's language), and park there again. */
export function ReceiptActions({ sessionId, zoneId }: { sessionId: number; zoneId: number }) {
  const { t, i18n } = useTranslation();
  const [busy, setBusy] = useState(false);
  const download = async () => {
    setBusy(true);
    try {
      const lang = i18n.language === 'hi' ? 'hi' : 'en';
      await downloadFile(`/api/Parking/Session/${sessionId}/Receipt.pdf?lang=${lang}`, `parkit-receipt-${sessionId}.pdf`);
    } catch {
      toast.error(t('The receipt could not be downloaded.'));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <Button variant="secondary" block loading={busy} onClick={() => void download()} className="min-h-12">
        {!busy && <Download className="size-4" aria-hidden />}
        {t('Download receipt (PDF)')}
      </Button>
      <Link
        to={href(paths.confirmLocation, { zone: zoneId })}
        className="flex min-h-12 w-full items-center justify-center gap-2 rounded-xl bg-brand-700 px-4 text-base font-semibold text-white hover:bg-brand-800"
      >
        <RotateCcw className="size-4" aria-hidden />
        {t('Park here again')}
      </Link>
    </div>
  );
}

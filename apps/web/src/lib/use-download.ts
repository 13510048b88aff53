import { useState } from 'react';
import { toast } from './toasts.tsx';
import { downloadFile } from './download-file.ts';

/** A file download from the API (CSV, PDF) with its busy state; a failure is a toast with `failed` (already translated). */
export function useDownload(failed: string) {
  const [busy, setBusy] = useState(false);
  const download = async (url: string, filename: string) => {
    setBusy(true);
    try {
      await downloadFile(url, filename);
    } catch {
      toast.error(failed);
    } finally {
      setBusy(false);
    }
  };
  return { busy, download: (url: string, filename: string) => void download(url, filename) };
}

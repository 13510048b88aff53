import { useEffect, useState } from 'react';
import FileText from 'lucide-react/icons/file-text';
import { useTranslation } from '../../../lib/i18n.ts';
import type { Attachment } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';

/** Downloads need the bearer token, which an <img> or a link cannot send: fetched as a Blob. */
async function fetchBlob(url: string): Promise<Blob> {
  const res = await api.raw(url);
  if (!res.ok) throw new Error(String(res.status));
  return res.blob();
}

function useObjectUrl(url: string | null): string | null {
  const [objectUrl, setObjectUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!url) return;
    let revoked = false;
    let made: string | null = null;
    fetchBlob(url).then(
      (blob) => {
        if (revoked) return;
        made = URL.createObjectURL(blob);
        setObjectUrl(made);
      },
      () => undefined,
    );
    return () => {
      revoked = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [url]);
  return objectUrl;
}

const sizeLabel = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : `${Math.max(1, Math.round(n / 1024))} KB`;

/** An image as a thumbnail, a PDF as a file chip; both open the file. `src` is a local preview. */
export function AttachmentView({
  attachment,
  url,
  src,
}: {
  attachment: Pick<Attachment, 'FileName' | 'ContentType' | 'Size'>;
  url: string | null;
  src?: string;
}) {
  const { t } = useTranslation();
  const image = attachment.ContentType.startsWith('image/');
  const fetched = useObjectUrl(image && !src ? url : null);
  const shown = src ?? fetched;

  const open = async () => {
    if (!url) return;
    const blob = await fetchBlob(url);
    const href = URL.createObjectURL(blob);
    const a = document.createElement('a');
    a.href = href;
    a.download = attachment.FileName;
    a.click();
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  };

  if (image) {
    return shown ? (
      <button
        type="button"
        onClick={() => void open()}
        className="block overflow-hidden rounded-xl"
        aria-label={t('Download {{name}}', { name: attachment.FileName })}
      >
        <img src={shown} alt={attachment.FileName} className="h-32 w-44 max-w-full bg-slate-100 object-cover" />
      </button>
    ) : (
      <div role="status" className="h-32 w-44 max-w-full animate-pulse rounded-xl bg-slate-200">
        <span className="sr-only">{t('Loading')}</span>
      </div>
    );
  }
  return (
    <button
      type="button"
      onClick={() => void open()}
      className="flex max-w-full items-center gap-2 rounded-xl bg-white/80 px-3 py-2 text-start text-sm text-slate-900 ring-1 ring-slate-300"
      aria-label={t('Download {{name}}', { name: attachment.FileName })}
    >
      <FileText className="size-5 shrink-0 text-red-700" aria-hidden />
      <span className="min-w-0 flex-1 truncate">{attachment.FileName}</span>
      <span className="shrink-0 text-xs text-slate-500">{sizeLabel(attachment.Size)}</span>
    </button>
  );
}

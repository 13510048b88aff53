import { useEffect, useState } from 'react';
import FileText from 'lucide-react/icons/file-text';
import { useTranslation } from '../../lib/i18n.ts';
import { api } from '../../lib/api-client.ts';

/** A file behind the bearer token (an <img> or a link cannot send it): fetched as a Blob. */
async function fetchBlob(url: string): Promise<Blob> {
  const res = await api.raw(url);
  if (!res.ok) throw new Error(String(res.status));
  return res.blob();
}

/**
 * A private file (a citation's photo or attachment): an image as a thumbnail, anything else as a
 * file chip; both download the file when pressed.
 */
export function PrivateFile({ url, name, contentType }: { url: string; name: string; contentType: string }) {
  const { t } = useTranslation();
  const image = contentType.startsWith('image/');
  const [src, setSrc] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (!image) return;
    let gone = false;
    let made: string | null = null;
    fetchBlob(url).then(
      (blob) => {
        if (gone) return;
        made = URL.createObjectURL(blob);
        setSrc(made);
      },
      () => !gone && setFailed(true),
    );
    return () => {
      gone = true;
      if (made) URL.revokeObjectURL(made);
    };
  }, [url, image]);
  const open = async () => {
    const href = URL.createObjectURL(await fetchBlob(url));
    const a = document.createElement('a');
    a.href = href;
    a.download = name;
    a.click();
    setTimeout(() => URL.revokeObjectURL(href), 10_000);
  };
  if (image && failed) return <p className="text-sm text-red-700">{t('The file could not be loaded.')}</p>;
  if (image)
    return src ? (
      <button
        type="button"
        onClick={() => void open()}
        className="block overflow-hidden rounded-xl"
        aria-label={t('Download {{name}}', { name })}
      >
        <img src={src} alt={name} className="h-32 w-44 max-w-full bg-slate-100 object-cover" />
      </button>
    ) : (
      <div role="status" className="h-32 w-44 max-w-full animate-pulse rounded-xl bg-slate-200">
        <span className="sr-only">{t('Loading')}</span>
      </div>
    );
  return (
    <button
      type="button"
      onClick={() => void open()}
      className="flex min-h-11 items-center gap-2 rounded-xl bg-slate-100 px-3 text-sm text-slate-900"
    >
      <FileText aria-hidden className="size-4" />
      <span className="break-all">{name}</span>
    </button>
  );
}

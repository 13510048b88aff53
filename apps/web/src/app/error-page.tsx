import { isRouteErrorResponse, useRouteError } from 'react-router';
import { useTranslation } from '../lib/i18n.ts';
import { Button } from '../components/ui/button.tsx';

/** The router's fallback page (docs/product.md#screens): 'Unexpected Application Error!' and the cause. */
export function ErrorPage() {
  const { t } = useTranslation();
  const error = useRouteError();
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : String(error);
  const chunk = error instanceof Error && error.name === 'ChunkLoadError';
  return (
    <main className="mx-auto flex min-h-dvh max-w-md flex-col justify-center gap-4 p-6">
      <h2 className="text-2xl font-bold text-slate-900">{t('Unexpected Application Error!')}</h2>
      <h3 className="font-mono text-sm break-words text-slate-600">{detail}</h3>
      {chunk && <p className="text-sm text-slate-700">{t('A new version of the app may be available.')}</p>}
      <Button onClick={() => window.location.reload()}>{t('Reload')}</Button>
    </main>
  );
}

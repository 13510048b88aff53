import { Link, useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/ui/load-error.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { href, paths } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useParkingSession } from '../api/get-parking-session.ts';
import { parseZoneId } from './confirm-zone-screen.tsx';
import { SessionSummary } from './session-summary.tsx';

/**
 * /ClosingReceipt?id= (issue 11): the summary of a session that ended. The back arrow goes to
 * /confirmlocation for the same zone (park there again); OK to /homepage (spec section 2).
 */
export function ClosingReceiptScreen() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = parseZoneId(params.get('id'));
  const session = useParkingSession(id);
  const back = session.data ? href(paths.confirmLocation, { zone: session.data.ZoneId }) : paths.confirmLocation;
  const missing = id === null || (session.error instanceof ApiError && (session.error.status === 404 || session.error.status === 400));
  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PageHeader title={t('Receipt')} back={back} />
      <div className="flex flex-col gap-4 p-4">
        {missing ? (
          <p role="alert" className="rounded-2xl bg-white p-6 text-center text-slate-700">
            {t('This parking session was not found.')}
          </p>
        ) : session.isPending ? (
          <Skeleton rows={2} className="h-56" />
        ) : session.isError ? (
          <LoadError message={t('The receipt could not be loaded.')} retrying={session.isFetching} onRetry={() => void session.refetch()} />
        ) : (
          <SessionSummary session={session.data} />
        )}
        <Link to={paths.homepage} className="flex min-h-12 w-full items-center justify-center rounded-xl bg-brand-700 px-4 text-base font-semibold text-white hover:bg-brand-800">
          {t('OK')}
        </Link>
      </div>
    </main>
  );
}

import { useSearchParams } from 'react-router';
import { useTranslation } from 'react-i18next';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { LoadError } from '../../components/ui/load-error.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { Skeleton } from '../../components/ui/skeleton.tsx';
import { paths } from '../../config/paths.ts';
import { ApiError } from '../../lib/api-client.ts';
import { ReceiptActions } from '../../features/history/components/receipt-actions.tsx';
import { useParkingSession } from '../../features/parking/api/get-parking-session.ts';
import { parseZoneId } from '../../features/parking/components/confirm-zone-screen.tsx';
import { SessionSummary } from '../../features/parking/components/session-summary.tsx';

/**
 * /ParkingSessionDetail?id= (issue 12): the same session summary as /ClosingReceipt, with the
 * receipt as a PDF and "Park here again".
 */
export function Component() {
  const { t } = useTranslation();
  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PageHeader title={t('Parking Session')} back={paths.pastPark} />
      <MemberOnly message={t('Sign in to see your past parking sessions and their receipts.')}>
        <SessionDetail />
      </MemberOnly>
    </main>
  );
}

function SessionDetail() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = parseZoneId(params.get('id'));
  const session = useParkingSession(id);
  const missing = id === null || (session.error instanceof ApiError && (session.error.status === 404 || session.error.status === 400));
  return (
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
          <>
            <SessionSummary session={session.data} />
            <ReceiptActions sessionId={session.data.SessionId} zoneId={session.data.ZoneId} />
          </>
        )}
      </div>
  );
}

import { useTranslation } from '../../lib/i18n.ts';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { paths } from '../../config/paths.ts';
import { ReceiptActions } from '../../features/history/components/receipt-actions.tsx';
import { useParkingSession } from '../../features/parking/api/get-parking-session.ts';
import { useIdParam } from '../../features/parking/hooks/use-id-param.ts';
import { SessionLoader } from '../../features/parking/components/session-loader.tsx';
import { SessionSummary } from '../../features/parking/components/session-summary.tsx';

/**
 * /ParkingSessionDetail?id=: the same session summary as /ClosingReceipt, with the
 * receipt as a PDF and "Park here again"; its not-found, loading and failed states are
 * /ClosingReceipt's (SessionLoader).
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
  const id = useIdParam('id');
  const session = useParkingSession(id);
  return (
    <div className="flex flex-col gap-4 p-4">
      <SessionLoader id={id} session={session} failed={t('The receipt could not be loaded.')}>
        {(s) => (
          <>
            <SessionSummary session={s} />
            <ReceiptActions sessionId={s.SessionId} zoneId={s.ZoneId} />
          </>
        )}
      </SessionLoader>
    </div>
  );
}

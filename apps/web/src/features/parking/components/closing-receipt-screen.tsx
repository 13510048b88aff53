import { useTranslation } from '../../../lib/i18n.ts';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useLocation } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { useParkingSession } from '../api/get-parking-session.ts';
import { useIdParam } from '../hooks/use-id-param.ts';
import { SessionLoader } from './session-loader.tsx';
import { SessionSummary } from './session-summary.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';

/** Where a receipt was opened from, for its back arrow (router state: { from }). */
export interface ReceiptFrom {
  from?: string;
}

/**
 * /ClosingReceipt?id=: the summary of a session that ended, with what was paid. The
 * back arrow returns where the driver came from: Past Parkings when opened from there, otherwise
 * home (never a new park); OK goes to /homepage (docs/product.md#the-receipt).
 */
export function ClosingReceiptScreen() {
  const { t } = useTranslation();
  const id = useIdParam('id');
  const session = useParkingSession(id);
  const from = (useLocation().state as ReceiptFrom | null)?.from;
  const back = from === paths.pastPark ? paths.pastPark : paths.homepage;
  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PageHeader title={t('Receipt')} back={back} />
      <div className="flex flex-col gap-4 p-4">
        <SessionLoader id={id} session={session} failed={t('The receipt could not be loaded.')}>
          {(s) => <SessionSummary session={s} />}
        </SessionLoader>
        <ButtonLink to={paths.homepage} size="lg" block>
          {t('OK')}
        </ButtonLink>
      </div>
    </main>
  );
}

import { useTranslation } from '../../../lib/i18n.ts';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { href, paths } from '../../../config/paths.ts';
import { useParkingSession } from '../api/get-parking-session.ts';
import { useIdParam } from '../hooks/use-id-param.ts';
import { SessionLoader } from './session-loader.tsx';
import { SessionSummary } from './session-summary.tsx';
import { ButtonLink } from '../../../components/ui/button-link.tsx';

/**
 * /ClosingReceipt?id= (issue 11): the summary of a session that ended. The back arrow goes to
 * /confirmlocation for the same zone (park there again); OK to /homepage (docs/product.md#screens).
 */
export function ClosingReceiptScreen() {
  const { t } = useTranslation();
  const id = useIdParam('id');
  const session = useParkingSession(id);
  const back = session.data ? href(paths.confirmLocation, { zone: session.data.ZoneId }) : paths.confirmLocation;
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

import { useTranslation } from '../../lib/i18n.ts';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { WithVehicles } from './with-vehicles.tsx';
import { ParkDetailsScreen } from '../../features/parking/components/park-details-screen.tsx';
import { paths } from '../../config/paths.ts';

/** /parkdetails?id=: the live session; the vehicles list serves the plate correction. Members only (Quick Park has its own link). */
export function Component() {
  const { t } = useTranslation();
  return (
    <MemberOnly screen={t('Parking Details')} back={paths.homepage} message={t('Log in or register to see your parking sessions.')}>
      <WithVehicles screen={ParkDetailsScreen} />
    </MemberOnly>
  );
}

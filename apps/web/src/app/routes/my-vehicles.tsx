import { useTranslation } from 'react-i18next';
import { MemberOnly } from '../../components/session/guest-prompt.tsx';
import { PageHeader } from '../../components/ui/page-header.tsx';
import { paths } from '../../config/paths.ts';
import { VehicleList } from '../../features/vehicles/components/vehicle-list.tsx';

/** My Vehicles (/myvehicles), spec section 2. */
export function Component() {
  const { t } = useTranslation();
  return (
    <main className="flex flex-1 flex-col">
      <PageHeader title={t('My Vehicles')} back={paths.profile} />
      <div className="flex flex-1 flex-col p-4">
        <MemberOnly message={t('Sign in to keep your vehicles.')}>
          <VehicleList />
        </MemberOnly>
      </div>
    </main>
  );
}

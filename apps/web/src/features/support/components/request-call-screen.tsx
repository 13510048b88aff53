import { useTranslation } from '../../../lib/i18n.ts';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useSession } from '../../../lib/session.ts';
import { useSupportHours } from '../api/get-support-hours.ts';
import { RequestCallForm } from './request-call-form.tsx';

/** Request call back: the form once the support hours are known; phone prefilled from the profile. */
export function RequestCallScreen() {
  const { t } = useTranslation();
  const { user } = useSession();
  const hours = useSupportHours();
  return (
    <Loaded
      query={hours}
      skeleton={<Skeleton rows={3} className="h-14" />}
      failed={t('Support hours could not be loaded.')}
    >
      {(h) => <RequestCallForm hours={h} phone={user?.PhoneNumber ?? ''} />}
    </Loaded>
  );
}

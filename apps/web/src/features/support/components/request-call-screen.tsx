import { useTranslation } from '../../../lib/i18n.ts';
import { LoadError } from '../../../components/ui/load-error.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { MemberOnly } from '../../../components/session/guest-prompt.tsx';
import { useSession } from '../../../lib/session.ts';
import { useSupportHours } from '../api/get-support-hours.ts';
import { RequestCallForm } from './request-call-form.tsx';

/** Request call back: the form once the support hours are known; phone prefilled from the profile. */
export function RequestCallScreen() {
  const { t } = useTranslation();
  return (
    <MemberOnly message={t('Call-back requests and chat need an account.')}>
      <RequestCall />
    </MemberOnly>
  );
}

function RequestCall() {
  const { t } = useTranslation();
  const { user } = useSession();
  const hours = useSupportHours();
  if (hours.isPending) return <Skeleton rows={3} className="h-14" />;
  if (hours.isError) return <LoadError message={t('Support hours could not be loaded.')} onRetry={() => void hours.refetch()} retrying={hours.isFetching} />;
  return <RequestCallForm hours={hours.data} phone={user?.PhoneNumber ?? ''} />;
}

import { useTranslation } from 'react-i18next';
import { LoadError } from '../../../components/ui/load-error.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { storage } from '../../../lib/storage.ts';
import { useSupportHours } from '../api/get-support-hours.ts';
import { RequestCallForm } from './request-call-form.tsx';
import { SupportGuestNotice } from './support-guest-notice.tsx';

/** Request call back: the form once the support hours are known; phone prefilled from the profile. */
export function RequestCallScreen() {
  const { t } = useTranslation();
  const hours = useSupportHours();
  if (storage.isGuest() || !storage.token()) return <SupportGuestNotice />;
  if (hours.isPending) return <Skeleton rows={3} className="h-14" />;
  if (hours.isError) return <LoadError message={t('Support hours could not be loaded.')} onRetry={() => void hours.refetch()} retrying={hours.isFetching} />;
  return <RequestCallForm hours={hours.data} phone={storage.userData()?.PhoneNumber ?? ''} />;
}

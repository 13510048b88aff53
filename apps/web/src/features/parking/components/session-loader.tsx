import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ParkingSession } from '@parkit/contract';
import { Loaded } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { ApiError } from '../../../lib/api-client.ts';

/** One session's states on a screen: not found (no id, 400, 404), loading, failed, or the children. */
export function SessionLoader({
  id,
  session,
  failed,
  children,
}: {
  id: number | null;
  session: UseQueryResult<ParkingSession>;
  /** Already translated. */
  failed: string;
  children: (s: ParkingSession) => ReactNode;
}) {
  const { t } = useTranslation();
  const missing = id === null || (session.error instanceof ApiError && (session.error.status === 404 || session.error.status === 400));
  if (missing) {
    return (
      <p role="alert" className="rounded-2xl bg-white p-6 text-center text-slate-700">
        {t('This parking session was not found.')}
      </p>
    );
  }
  return (
    <Loaded query={session} skeleton={<Skeleton rows={2} className="h-40" />} failed={failed}>
      {children}
    </Loaded>
  );
}

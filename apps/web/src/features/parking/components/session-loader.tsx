import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ParkingSession } from '@parkit/contract';
import { Loaded, Notice } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';

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
  const notFound = t('This parking session was not found.');
  if (id === null) return <Notice>{notFound}</Notice>;
  return (
    <Loaded
      query={session}
      skeleton={<Skeleton rows={2} className="h-40" />}
      failed={failed}
      refused={{ status: [400, 404], message: notFound }}
    >
      {children}
    </Loaded>
  );
}

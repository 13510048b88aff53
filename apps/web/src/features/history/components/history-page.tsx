import type { ReactNode } from 'react';
import { useTranslation } from '../../../lib/i18n.ts';
import { MemberOnly } from '../../../components/session/guest-prompt.tsx';
import { PageHeader } from '../../../components/ui/page-header.tsx';
import { useHistoryFilters } from '../hooks/use-history-filters.ts';
import { ViewToggle } from './view-toggle.tsx';

/** The frame of /pastpark and /mappage: the header with the list/map toggle (to the other view, same sort and filters), members only. */
export function HistoryPage({ toggleTo, children }: { toggleTo: 'map' | 'list'; children: ReactNode }) {
  const { t } = useTranslation();
  const [, , search] = useHistoryFilters();
  return (
    <main className="flex flex-1 flex-col bg-slate-50">
      <PageHeader title={t('Past Parking Sessions')} action={<ViewToggle to={toggleTo} search={search} />} />
      <MemberOnly message={t('Sign in to see your past parking sessions and their receipts.')}>{children}</MemberOnly>
    </main>
  );
}

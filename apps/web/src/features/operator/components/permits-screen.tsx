import { operatorCan } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { Notice } from '../../../components/ui/loaded.tsx';
import { useMembership } from './console-shell.tsx';
import { PermitApplications } from './permit-applications.tsx';
import { PermitTypes } from './permit-types.tsx';

/**
 * Permits in the console (/operator/{id}/permits, docs/permits.md): the permit types (owners and
 * managers create, edit and retire them; analysts read) and the applications, pending first, with
 * their proof and, for a pending one, Approve and Refuse with a reason. Officers do not see the page.
 */
export function PermitsConsoleScreen() {
  const { t } = useTranslation();
  const { OperatorId, Role } = useMembership();
  if (!operatorCan(Role, 'readPermits')) return <Notice>{t('Your role does not show permits.')}</Notice>;
  return (
    <div className="grid gap-4">
      <PermitTypes operatorId={OperatorId} />
      <section
        aria-labelledby="applications-title"
        className="rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-200"
      >
        <h2 id="applications-title" className="mb-3 text-xl font-bold text-slate-900">
          {t('Applications')}
        </h2>
        <PermitApplications operatorId={OperatorId} />
      </section>
    </div>
  );
}

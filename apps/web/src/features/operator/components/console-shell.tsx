import LogOut from 'lucide-react/icons/log-out';
import { Navigate, NavLink, Outlet, useNavigate, useOutletContext, useParams } from 'react-router';
import { operatorCan, type OperatorMembership } from '@parkit/contract';
import { useTranslation } from '../../../lib/i18n.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { logout } from '../../../lib/session.ts';
import { paths } from '../../../config/paths.ts';
import { Loaded, Notice } from '../../../components/ui/loaded.tsx';
import { Skeleton } from '../../../components/ui/skeleton.tsx';
import { useMyOperators } from '../api/memberships.ts';
import { operatorPath, type ConsoleSection } from '../lib/paths.ts';
import { roleLabel } from '../lib/role-label.ts';

/** What every console page reads from the shell: the operator chosen and the person's role there. */
export const useMembership = () => useOutletContext<OperatorMembership>();

/**
 * The operator's console (/operator): the operators of the signed-in person, the one chosen (in the
 * path), its sections, and the page. A driver (403) or a guest (401) is sent to the home page: they
 * never see the console.
 */
export function ConsoleShell() {
  const { t } = useTranslation();
  const mine = useMyOperators();
  const refused = mine.error instanceof ApiError && (mine.error.status === 401 || mine.error.status === 403);
  if (refused) return <Navigate to={paths.homepage} replace />;
  return (
    <Loaded
      query={mine}
      skeleton={<Skeleton rows={4} className="h-14" />}
      failed={t('The operator console could not be loaded.')}
    >
      {(list) => <Chosen list={list} />}
    </Loaded>
  );
}

function Chosen({ list }: { list: OperatorMembership[] }) {
  const { t } = useTranslation();
  const { operatorId } = useParams();
  const first = list[0];
  if (!first) return <Navigate to={paths.homepage} replace />;
  if (operatorId === undefined) return <Navigate to={operatorPath(first.OperatorId, 'dashboard')} replace />;
  const chosen = list.find((m) => String(m.OperatorId) === operatorId);
  return (
    <div className="flex min-h-dvh flex-col bg-slate-50">
      <ConsoleHeader list={list} chosen={chosen} />
      <main className="mx-auto flex w-full max-w-6xl flex-1 flex-col gap-4 p-4">
        {chosen ? <Outlet context={chosen} /> : <Notice>{t('Operator not found')}</Notice>}
      </main>
    </div>
  );
}

function ConsoleHeader({ list, chosen }: { list: OperatorMembership[]; chosen: OperatorMembership | undefined }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const sections: { id: ConsoleSection; label: string }[] = [
    { id: 'dashboard', label: t('Dashboard') },
    { id: 'zones', label: t('Zones') },
    { id: 'prices', label: t('Prices') },
    { id: 'sessions', label: t('Sessions') },
    { id: 'citations', label: t('Citations') },
    // Officers do not see permits (OPERATOR_CAN.readPermits).
    ...(chosen && operatorCan(chosen.Role, 'readPermits') ? [{ id: 'permits' as const, label: t('Permits') }] : []),
    { id: 'reports', label: t('Reports') },
    { id: 'settlement', label: t('Settlement') },
    { id: 'people', label: t('People') },
    { id: 'audit', label: t('Audit log') },
    // Owners only (OPERATOR_CAN.keys).
    ...(chosen && operatorCan(chosen.Role, 'keys') ? [{ id: 'keys' as const, label: t('API keys') }] : []),
  ];
  const signOut = async () => {
    await logout();
    await navigate(paths.parkit);
  };
  return (
    <header className="bg-brand-800 text-white">
      <div className="mx-auto flex w-full max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
        <p className="text-lg font-bold">{t('Operator console')}</p>
        {list.length > 1 ? (
          <label className="flex items-center gap-2 text-sm">
            <span>{t('Operator')}</span>
            <select
              className="min-h-11 rounded-lg bg-white px-2 text-slate-900"
              value={chosen?.OperatorId ?? ''}
              onChange={(e) => void navigate(operatorPath(Number(e.target.value), 'dashboard'))}
            >
              {list.map((m) => (
                <option key={m.OperatorId} value={m.OperatorId}>
                  {m.Name}
                </option>
              ))}
            </select>
          </label>
        ) : (
          chosen && <p className="text-sm break-words">{chosen.Name}</p>
        )}
        {chosen && (
          <p className="text-sm text-brand-50/90">{t('Your role: {{role}}', { role: roleLabel(t, chosen.Role) })}</p>
        )}
        <button
          type="button"
          onClick={() => void signOut()}
          aria-label={t('Logout')}
          className="ms-auto grid size-11 place-items-center rounded-full hover:bg-white/10"
        >
          <LogOut className="size-5" aria-hidden />
        </button>
      </div>
      {chosen && (
        <nav aria-label={t('Operator console')} className="mx-auto flex w-full max-w-6xl flex-wrap gap-1 px-2 pb-2">
          {sections.map((s) => (
            <NavLink
              key={s.id}
              to={operatorPath(chosen.OperatorId, s.id)}
              className={({ isActive }) =>
                `flex min-h-11 items-center rounded-lg px-3 text-sm font-semibold ${isActive ? 'bg-white text-brand-800' : 'text-white hover:bg-white/10'}`
              }
            >
              {s.label}
            </NavLink>
          ))}
        </nav>
      )}
    </header>
  );
}

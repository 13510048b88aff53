import { useMyOperators } from '../../features/enforcement/api/officer.ts';
import { EnforcementScreen } from '../../features/enforcement/components/enforcement-screen.tsx';
import { OfficerScreen } from '../../features/enforcement/components/officer-screen.tsx';
import { useSession } from '../../lib/session.ts';
import { operatorCan } from '@parkit/contract';

/**
 * /enforcement: a signed-in officer (or manager, or owner) gets the officer's page of their operator
 * (docs/enforcement.md); anyone else the plate check with an operator's key.
 */
export function Component() {
  const session = useSession();
  const mine = useMyOperators(session.member);
  const staff = mine.data?.find((m) => operatorCan(m.Role, 'enforce'));
  if (session.member && mine.isPending) return <main className="min-h-dvh bg-slate-100" aria-busy="true" />;
  return staff ? <OfficerScreen operatorId={staff.OperatorId} operatorName={staff.Name} /> : <EnforcementScreen />;
}

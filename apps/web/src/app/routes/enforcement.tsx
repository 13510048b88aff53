import { EnforcementScreen } from '../../features/enforcement/components/enforcement-screen.tsx';

/** /enforcement: the officers' plate check (issue 12). Public: the operator's key, not a member's sign-in. */
export function Component() {
  return <EnforcementScreen />;
}

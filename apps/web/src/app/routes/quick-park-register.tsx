import { useStates } from '../../lib/states-query.ts';
import { QuickParkScreen } from '../../features/parking/components/quick-park-screen.tsx';

/** /QuickParkRegister: Quick Park for a driver without an account. */
export function Component() {
  const states = useStates();
  return <QuickParkScreen states={states.data ?? []} />;
}

import { PermitsScreen } from '../../features/permits/components/permits-screen.tsx';

/** /permits: the driver's permits (issue 30). */
export function Component() {
  return <PermitsScreen />;
}

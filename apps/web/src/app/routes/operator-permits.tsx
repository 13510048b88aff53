import { PermitsConsoleScreen } from '../../features/operator/components/permits-screen.tsx';

/** /operator/{operatorId}/permits */
export function Component() {
  return <PermitsConsoleScreen />;
}

import { SessionsScreen } from '../../features/operator/components/sessions-screen.tsx';

/** /operator/{operatorId}/sessions */
export function Component() {
  return <SessionsScreen />;
}

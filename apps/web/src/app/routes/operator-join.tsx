import { JoinScreen } from '../../features/operator/components/join-screen.tsx';

/** /operator/join: accept an invitation to an operator's team. */
export function Component() {
  return <JoinScreen />;
}

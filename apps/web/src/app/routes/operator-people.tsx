import { PeopleScreen } from '../../features/operator/components/people-screen.tsx';

/** /operator/{operatorId}/people */
export function Component() {
  return <PeopleScreen />;
}

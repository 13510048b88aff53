import { ZonesScreen } from '../../features/operator/components/zones-screen.tsx';

/** /operator/{operatorId}/zones */
export function Component() {
  return <ZonesScreen />;
}

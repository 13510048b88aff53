import { ConfirmZoneScreen } from '../../features/parking/components/confirm-zone-screen.tsx';

export function Component() {
  return <ConfirmZoneScreen />;
}

import { FindParkingMapScreen } from '../../features/parking/components/find-parking-map-screen.tsx';

export function Component() {
  return <FindParkingMapScreen />;
}

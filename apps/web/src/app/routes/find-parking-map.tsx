import { FindParkingMapScreen } from '../../features/parking/components/find-parking-map-screen.tsx';
import { FindParkingGate } from '../find-parking-gate.tsx';

export function Component() {
  return (
    <FindParkingGate>
      <FindParkingMapScreen />
    </FindParkingGate>
  );
}

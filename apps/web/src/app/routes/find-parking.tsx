import { FindParkingScreen } from '../../features/parking/components/find-parking-screen.tsx';
import { FindParkingGate } from '../find-parking-gate.tsx';

export function Component() {
  return (
    <FindParkingGate>
      <FindParkingScreen />
    </FindParkingGate>
  );
}

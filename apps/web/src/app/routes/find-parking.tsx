import { FindParkingScreen } from '../../features/parking/components/find-parking-screen.tsx';

export function Component() {
  return <FindParkingScreen />;
}

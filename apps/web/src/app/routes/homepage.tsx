import { HomeScreen } from '../../features/account/components/home-screen.tsx';

/** The parking feature will pass the running session here (`activeSession`). */
export function Component() {
  return <HomeScreen />;
}

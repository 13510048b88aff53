import { CitationsConsoleScreen } from '../../features/operator/components/citations-screen.tsx';

/** /operator/{operatorId}/citations */
export function Component() {
  return <CitationsConsoleScreen />;
}

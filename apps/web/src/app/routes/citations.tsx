import { CitationsScreen } from '../../features/citations/components/citations-screen.tsx';

/** /citations: the driver's citations. */
export function Component() {
  return <CitationsScreen />;
}

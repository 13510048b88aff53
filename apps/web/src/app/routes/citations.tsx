import { CitationsScreen } from '../../features/citations/components/citations-screen.tsx';

/** /citations: the driver's citations (issue 30). */
export function Component() {
  return <CitationsScreen />;
}

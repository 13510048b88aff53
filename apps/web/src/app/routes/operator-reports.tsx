import { ReportsScreen } from '../../features/operator/components/reports-screen.tsx';

/** /operator/{operatorId}/reports */
export function Component() {
  return <ReportsScreen />;
}

import { DashboardScreen } from '../../features/operator/components/dashboard-screen.tsx';

/** /operator/{operatorId}/dashboard: the console's landing page. */
export function Component() {
  return <DashboardScreen />;
}

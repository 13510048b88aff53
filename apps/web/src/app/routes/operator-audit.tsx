import { AuditScreen } from '../../features/operator/components/audit-screen.tsx';

/** /operator/{operatorId}/audit */
export function Component() {
  return <AuditScreen />;
}

import { SettlementScreen } from '../../features/operator/components/settlement-screen.tsx';

/** /operator/{operatorId}/settlement */
export function Component() {
  return <SettlementScreen />;
}

import { PricesScreen } from '../../features/operator/components/prices-screen.tsx';

/** /operator/{operatorId}/prices */
export function Component() {
  return <PricesScreen />;
}

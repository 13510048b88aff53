import { PastParkScreen } from '../../features/history/components/past-park-screen.tsx';
import { useHistoryProps } from './history-props.ts';

/** Past Parking Sessions (/pastpark), docs/product.md#screens; issue 12. */
export function Component() {
  return <PastParkScreen {...useHistoryProps()} />;
}

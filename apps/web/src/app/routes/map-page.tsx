import { MapPageScreen } from '../../features/history/components/map-page-screen.tsx';
import { useOperator } from '../../features/parking/api/get-operator.ts';
import { useHistoryProps } from './history-props.ts';

/** Past sessions on the map (/mappage), docs/product.md#screens; issue 12. */
export function Component() {
  const operator = useOperator();
  const centre = operator.data ? { lat: operator.data.Latitude, lng: operator.data.Longitude } : null;
  return <MapPageScreen {...useHistoryProps()} centre={centre} />;
}

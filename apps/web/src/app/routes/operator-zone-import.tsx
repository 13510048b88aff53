import { ZoneImportScreen } from '../../features/operator/components/zone-import.tsx';

/** /operator/{operatorId}/zones/import: a zone file checked, then imported. */
export function Component() {
  return <ZoneImportScreen />;
}

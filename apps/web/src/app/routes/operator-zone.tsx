import { ZoneEditorScreen } from '../../features/operator/components/zone-editor.tsx';

/** /operator/{operatorId}/zones/{zoneId}, or /zones/new: a zone on the map, to create, change or retire. */
export function Component() {
  return <ZoneEditorScreen />;
}

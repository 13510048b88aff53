import { KeysScreen } from '../../features/operator/components/keys-screen.tsx';

/** /operator/{operatorId}/keys */
export function Component() {
  return <KeysScreen />;
}

import { ClosingReceiptScreen } from '../../features/parking/components/closing-receipt-screen.tsx';

export function Component() {
  return <ClosingReceiptScreen />;
}

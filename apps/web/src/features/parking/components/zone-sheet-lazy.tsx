import { lazy, Suspense, useState } from 'react';
import type { Zone } from '@parkit/contract';

const Sheet = lazy(() => import('./zone-sheet.tsx').then((m) => ({ default: m.ZoneSheet })));

/**
 * The zone sheet of /findparking and /findparkingmap, fetched with its dialog code the first time
 * a zone is opened rather than with the screen, where it starts closed. Once opened it
 * stays mounted, so closing it (focus back to the row or marker) works as before.
 */
export function ZoneSheet({ zone, onClose }: { zone: Zone | null; onClose: () => void }) {
  const [wanted, setWanted] = useState(false);
  // A zone opened: from now on the sheet is rendered (state adjusted while rendering, React's way
  // for a value that follows a prop).
  if (zone !== null && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Sheet zone={zone} onClose={onClose} />
    </Suspense>
  );
}

/** How full a zone is, as a colour of the heat layer: green (room) to amber to red (full or over). */
export function occupancyColour(occupancy: number): string {
  if (occupancy >= 0.9) return '#b91c1c';
  if (occupancy >= 0.6) return '#d97706';
  if (occupancy > 0) return '#15803d';
  return '#64748b';
}

/** A share as a whole percent (0.25 -> "25%"). */
export const percent = (share: number) => `${Math.round(share * 100)}%`;

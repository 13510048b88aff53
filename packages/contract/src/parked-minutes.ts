/**
 * A session's parked duration, the one rule every screen, receipt, CSV and Stop use
 * (docs/product.md#parked-duration): while it runs, the minutes bought; once it ended, every
 * minute begun counts (61 seconds are 2 minutes, as Stop keeps and charges them), at least 1 and
 * never more than were bought.
 */
export function parkedMinutes(s: {
  StartedAt: string | Date;
  EndedAt: string | Date | null;
  DurationMinutes: number;
}): number {
  if (s.EndedAt === null) return s.DurationMinutes;
  const ms = new Date(s.EndedAt).getTime() - new Date(s.StartedAt).getTime();
  return Math.min(s.DurationMinutes, Math.max(1, Math.ceil(ms / 60_000)));
}

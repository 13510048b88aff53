import type { JSONWebKeySet } from 'jose';
import type { RightsDownload, Violation, ZoneRight } from '@parkit/contract';

/** What an officer's device keeps for checks with no signal: the rights of some zones, the proof keys, the violations. */
export interface OfflinePack {
  download: RightsDownload;
  keys: JSONWebKeySet;
  violations: Violation[];
}

/** As the server compares plates (enforcement/plate.ts): case, spaces, dashes and dots do not matter. */
export const normalisePlate = (plate: string) => plate.toUpperCase().replace(/[\s\-.·]/g, '');

export interface OfflineAnswer {
  right: ZoneRight | null;
  /** Whole minutes since the rights were read on the server. */
  ageMinutes: number;
}

/**
 * Checks a plate against the downloaded rights at `now`: a right of the zone for the plate (a
 * session's state must match) that has started and not ended. A right begun after the download is
 * not known: the answer says how old the download is.
 */
export function checkOffline(
  pack: OfflinePack,
  q: { zoneId: number; plate: string; state: string },
  now: Date,
): OfflineAnswer {
  const plate = normalisePlate(q.plate);
  const state = q.state.trim().toUpperCase();
  const t = now.getTime();
  const right =
    pack.download.Rights.filter(
      (r) =>
        r.ZoneId === q.zoneId &&
        r.PlateNumber === plate &&
        (r.PlateState === null || r.PlateState === state) &&
        Date.parse(r.StartsAt) <= t &&
        (r.EndsAt === null || Date.parse(r.EndsAt) > t),
    ).sort(
      (a, b) =>
        (b.EndsAt === null ? Infinity : Date.parse(b.EndsAt)) - (a.EndsAt === null ? Infinity : Date.parse(a.EndsAt)),
    )[0] ?? null;
  return { right, ageMinutes: Math.max(0, Math.floor((t - Date.parse(pack.download.GeneratedAt)) / 60_000)) };
}

import type { Chalk } from '@parkit/contract';
import { sendWaiting } from './citation-queue.ts';
import { normalisePlate, type OfflinePack } from './offline-rights.ts';

/**
 * A chalk (a plate's first sighting in a zone) recorded on the officer's device, kept until the
 * server has it: the citation queue's shape (citation-queue.ts), in the same device store.
 */
export interface QueuedChalk {
  /** Also the Idempotency-Key: a resend answers the first chalk. */
  id: string;
  operatorId: number;
  ZoneId: number;
  ZoneNumber: string;
  PlateNumber: string;
  PlateState: string;
  /** When the officer saw the plate (ISO 8601). */
  observedAt: string;
  state: 'waiting' | 'sent' | 'refused';
  chalkId?: number;
  /** The first sighting the server answered: another officer's may be earlier than ours. */
  firstSeenAt?: string;
  /** The server's reason for a refusal. */
  error?: string;
}

export interface ChalkStore {
  list(): Promise<QueuedChalk[]>;
  put(item: QueuedChalk): Promise<void>;
}

export interface ChalkApi {
  send(item: QueuedChalk): Promise<Chalk>;
}

/**
 * Sends every waiting chalk, oldest first, with its Idempotency-Key and the moment seen, as
 * syncQueue sends citations: a refusal (a moment too old) is final and kept with its reason; no
 * connection stops the run and what is waiting stays for the next. Answers how many were sent.
 */
export async function syncChalks(store: ChalkStore, api: ChalkApi): Promise<number> {
  return sendWaiting(store, async (item) => {
    const chalk = await api.send(item);
    return { chalkId: chalk.ChalkId, firstSeenAt: chalk.FirstSeenAt };
  });
}

/** How long a plate has stood in a zone, by what the device knows. */
export interface ChalkSighting {
  firstSeenAt: string;
  minutes: number;
  /** The zone's maximum stay when the rights were downloaded. */
  maxStayMinutes: number;
  overstayed: boolean;
  /** The first sighting is one recorded on this device and not sent yet. */
  pending: boolean;
}

/** As the server (enforcement/chalk-repository.ts): an older chalk is a past visit. */
const CHALK_MS = 24 * 3_600_000;

/**
 * The plate's chalk in the zone at `now`, with no signal: the earliest first sighting of the last
 * 24 hours among the downloaded chalks and this device's (waiting ones, and sent ones at the time
 * the server answered); a refused one counts for nothing. Null: never chalked there, or a zone
 * not in the download.
 */
export function chalkOffline(
  pack: OfflinePack,
  queued: QueuedChalk[],
  q: { zoneId: number; plate: string },
  now: Date,
): ChalkSighting | null {
  const zone = pack.download.Zones.find((z) => z.ZoneId === q.zoneId);
  if (!zone) return null;
  const plate = normalisePlate(q.plate);
  const t = now.getTime();
  // A download kept before chalks were part of it has none.
  const seen = [
    ...(pack.download.Chalks ?? [])
      .filter((c) => c.ZoneId === q.zoneId && c.PlateNumber === plate)
      .map((c) => ({ at: c.FirstSeenAt, pending: false })),
    ...queued
      .filter(
        (c) =>
          c.operatorId === pack.download.OperatorId &&
          c.ZoneId === q.zoneId &&
          c.PlateNumber === plate &&
          c.state !== 'refused',
      )
      .map((c) => ({ at: c.firstSeenAt ?? c.observedAt, pending: c.state === 'waiting' })),
  ]
    .filter((s) => Date.parse(s.at) > t - CHALK_MS)
    .sort((a, b) => Date.parse(a.at) - Date.parse(b.at) || Number(a.pending) - Number(b.pending));
  const first = seen[0];
  if (!first) return null;
  const minutes = Math.max(0, Math.floor((t - Date.parse(first.at)) / 60_000));
  return {
    firstSeenAt: first.at,
    minutes,
    maxStayMinutes: zone.MaxStayMinutes,
    overstayed: minutes > zone.MaxStayMinutes,
    pending: first.pending,
  };
}

/**
 * The download as it stands with the server's answer for one plate in one zone, read online
 * beside the check: that plate's chalk there is the server's (none when it has none), and the
 * zone's maximum stay the one the server compared it with. chalkOffline on it still adds this
 * device's chalks not sent yet.
 */
export function withServerChalk(
  pack: OfflinePack,
  q: { zoneId: number; plate: string },
  chalk: Chalk | null,
): OfflinePack {
  const plate = normalisePlate(q.plate);
  const others = (pack.download.Chalks ?? []).filter((c) => !(c.ZoneId === q.zoneId && c.PlateNumber === plate));
  return {
    ...pack,
    download: {
      ...pack.download,
      Zones: pack.download.Zones.map((z) =>
        z.ZoneId === q.zoneId && chalk ? { ...z, MaxStayMinutes: chalk.MaxStayMinutes } : z,
      ),
      Chalks: chalk
        ? [
            ...others,
            { ZoneId: q.zoneId, PlateNumber: plate, PlateState: chalk.PlateState, FirstSeenAt: chalk.FirstSeenAt },
          ]
        : others,
    },
  };
}

import { useQuery } from '@tanstack/react-query';
import type { JSONWebKeySet } from 'jose';
import type {
  Chalk,
  Citation,
  CitationFile,
  EnforcementAnswer,
  OperatorMembership,
  OperatorZonePage,
  RightsDownload,
  Violation,
} from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { enforcementKeys } from './keys.ts';
import type { ChalkApi } from '../lib/chalk-queue.ts';
import type { QueueApi } from '../lib/citation-queue.ts';
import type { OfflinePack } from '../lib/offline-rights.ts';

const base = (operatorId: number) => `/api/Operator/${operatorId}`;

/** The operators the signed-in person works for (403 for a driver: then the key page is shown). */
export const useMyOperators = (enabled: boolean) =>
  useQuery({
    queryKey: enforcementKeys.mine,
    queryFn: ({ signal }) => api.get<OperatorMembership[]>('/api/Operator/Mine', { showError: false, signal }),
    retry: false,
    enabled,
  });

/**
 * The operator's zones in use, every page of them (200 a request), to choose which to download:
 * the picker finds any of them by number or name.
 */
export const useOfficerZones = (operatorId: number) =>
  useQuery({
    queryKey: enforcementKeys.zones(operatorId),
    queryFn: async ({ signal }) => {
      const page = (offset: number) =>
        api.get<OperatorZonePage>(`${base(operatorId)}/Zones?retired=exclude&limit=200&offset=${offset}`, {
          showError: false,
          signal,
        });
      const first = await page(0);
      const zones = [...first.Zones];
      while (zones.length < first.Total) {
        const next = await page(zones.length);
        if (next.Zones.length === 0) break;
        zones.push(...next.Zones);
      }
      return { ...first, Zones: zones };
    },
  });

/** Downloads what a check with no signal needs: the zones' rights, the proof keys, the violations. */
export async function downloadPack(operatorId: number, zoneIds: number[]): Promise<OfflinePack> {
  const [download, keys, violations] = await Promise.all([
    api.get<RightsDownload>(`${base(operatorId)}/Rights?zones=${zoneIds.join(',')}`, { showError: false }),
    api.get<JSONWebKeySet>('/api/Parking/ProofKeys', { showError: false }),
    api.get<Violation[]>(`${base(operatorId)}/Violations`, { showError: false }),
  ]);
  return { download, keys, violations: violations.filter((v) => !v.Retired) };
}

/** How long an online check waits for its answer before the kept download answers (a weak signal). */
export const ONLINE_CHECK_TIMEOUT_MS = 5_000;

/**
 * The officer's online check of one plate in one zone (docs/enforcement.md#checking-a-plate):
 * the server's answer now, audited under the officer's name. A check is a question asked now:
 * never cached. Throws an ApiError with no status when there is no connection (or no answer in
 * time), and the screen answers from the kept download.
 */
export const checkOnline = (operatorId: number, q: { zoneId: number; plate: string; state: string }) =>
  api.get<EnforcementAnswer>(
    `${base(operatorId)}/Check?${new URLSearchParams({ zoneId: String(q.zoneId), plate: q.plate, state: q.state })}`,
    { showError: false, signal: AbortSignal.timeout(ONLINE_CHECK_TIMEOUT_MS) },
  );

/** The plate's chalk in the zone as the server knows it now (another officer's included), asked beside the check. */
export const chalkNow = async (operatorId: number, q: { zoneId: number; plate: string }): Promise<Chalk | null> =>
  (
    await api.get<{ Chalk: Chalk | null }>(
      `${base(operatorId)}/Chalks?${new URLSearchParams({ zoneId: String(q.zoneId), plate: q.plate })}`,
      { showError: false, signal: AbortSignal.timeout(ONLINE_CHECK_TIMEOUT_MS) },
    )
  ).Chalk;

/** The chalk queue's call: the sighting with its Idempotency-Key and the moment seen. */
export const chalkApi: ChalkApi = {
  send: async (q) =>
    (
      await api.post<{ Chalk: Chalk }>(
        `${base(q.operatorId)}/Chalks`,
        { ZoneId: q.ZoneId, PlateNumber: q.PlateNumber, PlateState: q.PlateState, ObservedAt: q.observedAt },
        { showError: false, headers: { 'idempotency-key': q.id } },
      )
    ).Chalk,
};

/** The queue's two calls: a photo, then the citation with its Idempotency-Key and the moment seen. */
export const queueApi: QueueApi = {
  uploadPhoto: (operatorId, photo) =>
    api.upload<CitationFile>(`${base(operatorId)}/Citations/Photos`, 'file', photo, {}, { showError: false }),
  issue: (q) =>
    api.post<Citation>(
      `${base(q.operatorId)}/Citations`,
      {
        ZoneId: q.ZoneId,
        PlateNumber: q.PlateNumber,
        PlateState: q.PlateState,
        ViolationId: q.ViolationId,
        Location: q.Location,
        PhotoIds: q.photoIds,
        ObservedAt: q.observedAt,
      },
      { showError: false, headers: { 'idempotency-key': q.id } },
    ),
};

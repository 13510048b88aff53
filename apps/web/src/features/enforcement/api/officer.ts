import { useQuery } from '@tanstack/react-query';
import type { JSONWebKeySet } from 'jose';
import type {
  Chalk,
  Citation,
  CitationFile,
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

import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { OperatorZone, OperatorZonePage, ZoneImportReport, ZoneImportRequest, ZoneInput } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { downloadFile } from '../../../lib/download-file.ts';
import { operatorKeys } from './keys.ts';

const base = (operatorId: number) => `/api/Operator/${operatorId}/Zones`;

/** How the zones list is searched: text in number, name or address; which status; the page's first row. */
export interface ZoneSearch {
  q: string;
  retired: 'include' | 'exclude' | 'only';
  offset: number;
}
export const ZONES_PAGE = 25;

/** GET /api/Operator/{id}/Zones: a page of the operator's zones; the last page stays on screen while the next loads. */
export const useZones = (operatorId: number, search: ZoneSearch) =>
  useQuery({
    queryKey: operatorKeys.zoneList(operatorId, search),
    queryFn: ({ signal }) => {
      const qs = new URLSearchParams({
        q: search.q,
        retired: search.retired,
        offset: String(search.offset),
        limit: String(ZONES_PAGE),
      });
      return api.get<OperatorZonePage>(`${base(operatorId)}?${qs.toString()}`, { showError: false, signal });
    },
    placeholderData: keepPreviousData,
  });

/** GET /api/Operator/{id}/Zones/{zoneId} */
export const useZone = (operatorId: number, zoneId: number | null) =>
  useQuery({
    queryKey: operatorKeys.zone(operatorId, zoneId ?? 0),
    queryFn: ({ signal }) => api.get<OperatorZone>(`${base(operatorId)}/${zoneId}`, { showError: false, signal }),
    enabled: zoneId !== null,
  });

/** Every zone change is audited: the zones and the audit log are read again. */
function useZoneChange<V>(operatorId: number, request: (v: V) => Promise<OperatorZone>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: (zone) => qc.setQueryData(operatorKeys.zone(operatorId, zone.ZoneId), zone),
    onSettled: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: operatorKeys.zones(operatorId) }),
        qc.invalidateQueries({ queryKey: operatorKeys.audit(operatorId) }),
      ]),
  });
}

/** POST /Zones (a new zone) or PUT /Zones/{zoneId} (a change). */
export const useSaveZone = (operatorId: number, zoneId: number | null) =>
  useZoneChange(operatorId, (body: ZoneInput) =>
    zoneId === null
      ? api.post<OperatorZone>(base(operatorId), body, { showError: false })
      : api.put<OperatorZone>(`${base(operatorId)}/${zoneId}`, body, { showError: false }),
  );

/** POST /Zones/{zoneId}/Retire */
export const useRetireZone = (operatorId: number) =>
  useZoneChange(operatorId, (zoneId: number) => api.post<OperatorZone>(`${base(operatorId)}/${zoneId}/Retire`, {}));

/** POST /Zones/Import: a dry run (DryRun, the default) or the import itself, which changes the zones and the audit log. */
export function useImportZones(operatorId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ZoneImportRequest) =>
      api.post<ZoneImportReport>(`${base(operatorId)}/Import`, body, { showError: false }),
    onSuccess: (report) =>
      report.Imported > 0
        ? Promise.all([
            qc.invalidateQueries({ queryKey: operatorKeys.zones(operatorId) }),
            qc.invalidateQueries({ queryKey: operatorKeys.audit(operatorId) }),
          ])
        : undefined,
  });
}

/** GET /Zones/Export as a download: the zones in the columns Import reads. */
export const exportZones = (operatorId: number, format: 'csv' | 'geojson') =>
  downloadFile(`${base(operatorId)}/Export?format=${format}`, `zones.${format}`);

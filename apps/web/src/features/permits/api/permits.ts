import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ApplyPermitRequest,
  Attachment,
  PayFromRequest,
  Permit,
  PermitType,
  VisitorDayRequest,
  Zone,
} from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';

/** A visitor day as GET/POST /api/Permits/{id}/VisitorDays return it. */
export interface VisitorDay {
  Id: number;
  PermitId: number;
  Plate: string;
  Date: string;
}

/** React Query keys of the driver's permits. */
export const permitKeys = {
  all: ['permits'] as const,
  types: (zoneId: number) => ['permits', 'types', zoneId] as const,
  visitorDays: (permitId: number) => ['permits', permitId, 'visitor-days'] as const,
};

/** GET /api/Permits/List: the driver's permits and applications. */
export const usePermits = () =>
  useQuery({
    queryKey: permitKeys.all,
    queryFn: ({ signal }) => api.get<Permit[]>('/api/Permits/List', { showError: false, signal }),
  });

/** The zone with exactly this number (the parking search), or null. */
export async function findZone(number: string): Promise<Zone | null> {
  const qs = new URLSearchParams({ q: number, limit: '20' });
  const zones = await api.get<Zone[]>(`/api/Parking/Zones/Search?${qs}`, { showError: false });
  return zones.find((z) => z.ZoneNumber === number) ?? null;
}

/** GET /api/Permits/Types?zoneId=: the permit types covering a zone. */
export const usePermitTypes = (zoneId: number | null) =>
  useQuery({
    queryKey: permitKeys.types(zoneId ?? 0),
    enabled: zoneId !== null,
    queryFn: ({ signal }) => api.get<PermitType[]>(`/api/Permits/Types?zoneId=${zoneId}`, { showError: false, signal }),
  });

/** Uploads the proof when there is one (POST /api/Permits/Proof), then POST /api/Permits/Apply. */
export function useApplyPermit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ typeId, plates, proof }: { typeId: number; plates: string[]; proof: File | null }) => {
      const body: ApplyPermitRequest = { TypeId: typeId, Plates: plates };
      if (proof)
        body.ProofAttachmentId = (
          await api.upload<Attachment>('/api/Permits/Proof', 'file', proof, {}, { showError: false })
        ).AttachmentId;
      return api.post<Permit>('/api/Permits/Apply', body, { showError: false });
    },
    onSettled: () => qc.invalidateQueries({ queryKey: permitKeys.all }),
  });
}

/** POST /api/Permits/{id}/Pay from the wallet, or by the saved card `PaymentMethodId`, one Idempotency-Key per intent. */
export function usePayPermit() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ permitId, key, body }: { permitId: number; key: string; body: PayFromRequest }) =>
      api.post<Permit>(`/api/Permits/${permitId}/Pay`, body, { showError: false, headers: { 'idempotency-key': key } }),
    onSettled: () => qc.invalidateQueries({ queryKey: permitKeys.all }),
  });
}

/** GET /api/Permits/{id}/VisitorDays: the days a permit has given. */
export const useVisitorDays = (permitId: number) =>
  useQuery({
    queryKey: permitKeys.visitorDays(permitId),
    queryFn: ({ signal }) =>
      api.get<VisitorDay[]>(`/api/Permits/${permitId}/VisitorDays`, { showError: false, signal }),
  });

/** POST /api/Permits/{id}/VisitorDays {Plate, Date}. */
export function useGiveVisitorDay(permitId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: VisitorDayRequest) =>
      api.post<VisitorDay>(`/api/Permits/${permitId}/VisitorDays`, body, { showError: false }),
    onSettled: () => qc.invalidateQueries({ queryKey: permitKeys.visitorDays(permitId) }),
  });
}

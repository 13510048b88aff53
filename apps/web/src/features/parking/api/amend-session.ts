import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { AmendQuote, AmendQuoteRequest, AmendRequest, ParkingSession } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { parkingKeys } from './keys.ts';
import { putSession } from './get-parking-session.ts';

/**
 * POST /api/Parking/Amend: the right vehicle or zone, within 5 minutes of the start. It moves
 * money (the zone's price difference), so it carries an Idempotency-Key: one per intent
 * (useIntentKey), the same for a retry of the same correction.
 */
export const amendSession = (body: AmendRequest, key: string) =>
  api.post<ParkingSession>('/api/Parking/Amend', body, { showError: false, headers: { 'idempotency-key': key } });

export function useAmendSession() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, key }: { body: AmendRequest; key: string }) => amendSession(body, key),
    onSuccess: (session) => {
      putSession(qc, session);
      void qc.invalidateQueries({ queryKey: parkingKeys.active });
      void qc.invalidateQueries({ queryKey: queryKeys.account });
    },
  });
}

/** POST /api/Parking/AmendQuote: what moving the session to another zone would charge or refund. */
export const getAmendQuote = (body: AmendQuoteRequest, signal?: AbortSignal) =>
  api.post<AmendQuote>('/api/Parking/AmendQuote', body, { showError: false, ...(signal ? { signal } : {}) });

export const amendQuoteQuery = (body: AmendQuoteRequest) =>
  queryOptions({
    queryKey: parkingKeys.amendQuote(body),
    queryFn: ({ signal }) => getAmendQuote(body, signal),
    gcTime: 0,
    retry: false,
  });

/** `null` keeps it idle (no zone chosen yet). */
export function useAmendQuote(body: AmendQuoteRequest | null) {
  return useQuery({ ...amendQuoteQuery(body ?? { SessionId: 0, ZoneId: 0 }), enabled: body !== null });
}

import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ParkingSession, StartRequest } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { parkingKeys } from './keys.ts';
import { putSession } from './get-parking-session.ts';

/**
 * POST /api/Parking/Start and /Extend. The Idempotency-Key is derived from the quote, so a double
 * tap or a retry after a lost answer pays once and gets the same session back.
 */
export const payQuote = (action: 'Start' | 'Extend', body: StartRequest) =>
  api.post<ParkingSession>(`/api/Parking/${action}`, body, {
    showError: false,
    headers: { 'idempotency-key': `${action}:${body.QuoteId}:${body.ConfirmOverMax ? 'confirmed' : 'asked'}` },
  });

export function usePayQuote(action: 'Start' | 'Extend') {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: StartRequest) => payQuote(action, body),
    onSuccess: (session) => {
      putSession(qc, session);
      void qc.invalidateQueries({ queryKey: parkingKeys.active });
      // The wallet's balance changed.
      void qc.invalidateQueries({ queryKey: queryKeys.account });
    },
  });
}

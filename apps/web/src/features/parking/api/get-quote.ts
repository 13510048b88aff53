import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { QUOTE_HOLD_MINUTES, type Quote, type QuoteRequest } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { parkingKeys } from './keys.ts';

/** POST /api/Parking/Quote: a price held 5 minutes. A read for the screen, so a query (refreshed before it lapses). */
export const getQuote = (body: QuoteRequest, signal?: AbortSignal) =>
  api.post<Quote>('/api/Parking/Quote', body, { showError: false, ...(signal ? { signal } : {}) });

export const quoteQuery = (body: QuoteRequest) =>
  queryOptions({
    queryKey: parkingKeys.quote(body),
    queryFn: ({ signal }) => getQuote(body, signal),
    // A fresh price a little before the held one lapses.
    refetchInterval: (QUOTE_HOLD_MINUTES - 1) * 60_000,
    staleTime: 30_000,
    gcTime: 0,
    retry: false,
  });

/** The live quote; `null` keeps it idle (no vehicle or duration yet). */
export function useQuote(body: QuoteRequest | null) {
  return useQuery({
    ...quoteQuery(body ?? { DurationMinutes: 0 }),
    enabled: body !== null,
    placeholderData: keepPreviousData,
  });
}

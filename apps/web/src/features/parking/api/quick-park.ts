import { useMutation, useQuery } from '@tanstack/react-query';
import type {
  CodeSent,
  GuestExtendQuote,
  GuestExtendQuoteRequest,
  GuestPayment,
  GuestQuote,
  GuestQuoteRequest,
  GuestToken,
  ParkingSession,
  SessionReceipt,
  StopResponse,
} from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { tokenizeSandboxCard, type SandboxCard } from '../../../lib/sandbox-tokens.ts';
import { parkingKeys } from './keys.ts';

/** Quick Park: public calls; the guest token from /Verify goes in `x-guest-token`. */
const guest = (token: string) => ({ showError: false, headers: { 'x-guest-token': token } });

export const sendGuestCode = (phone: string) =>
  api.post<CodeSent>('/api/Parking/Guest/SendCode', { PhoneNumber: phone }, { showError: false });
export const verifyGuest = (phone: string, code: string) =>
  api.post<GuestToken>('/api/Parking/Guest/Verify', { PhoneNumber: phone, Code: code }, { showError: false });
export const quoteGuest = (token: string, body: GuestQuoteRequest) =>
  api.post<GuestQuote>('/api/Parking/Guest/Quote', body, guest(token));

/**
 * The Idempotency-Key is derived from the quote, as the member's Pay does: a second tap or a retry
 * after a lost answer gets the session the first started, not "This price has expired".
 */
export const startGuest = (token: string, quoteId: string, pay: { CardToken: string } | { ExpressToken: string }) =>
  api.post<ParkingSession>(
    '/api/Parking/Guest/Start',
    { QuoteId: quoteId, ...pay },
    { showError: false, headers: { 'x-guest-token': token, 'idempotency-key': `Guest/Start:${quoteId}` } },
  );

export const stopGuest = (token: string, sessionId: number) =>
  api.post<StopResponse>('/api/Parking/Guest/Stop', { SessionId: sessionId }, guest(token));

/**
 * Extend from the SMS link: a price for more minutes, then paid by the card the session was paid
 * with, or, when an express wallet paid it (the quote's ExpressRequired), by a new express payment.
 * The Idempotency-Key is derived from the quote, as Start's is.
 */
export const quoteGuestExtend = (token: string, body: GuestExtendQuoteRequest) =>
  api.post<GuestExtendQuote>('/api/Parking/Guest/ExtendQuote', body, guest(token));
export const extendGuest = (token: string, quoteId: string, expressToken?: string) =>
  api.post<ParkingSession>(
    '/api/Parking/Guest/Extend',
    { QuoteId: quoteId, ...(expressToken ? { ExpressToken: expressToken } : {}) },
    { showError: false, headers: { 'x-guest-token': token, 'idempotency-key': `Guest/Extend:${quoteId}` } },
  );

export function useGuestExtendQuote(token: string, body: GuestExtendQuoteRequest | null) {
  return useQuery({
    queryKey: parkingKeys.guestExtendQuote(body, token),
    queryFn: () => quoteGuestExtend(token, body!),
    enabled: body !== null,
    gcTime: 0,
    retry: false,
  });
}
export const useExtendGuest = () =>
  useMutation({
    mutationFn: (v: { token: string; quoteId: string; expressToken?: string }) =>
      extendGuest(v.token, v.quoteId, v.expressToken),
  });

export function useGuestSession(token: string | null, id: number | null) {
  return useQuery({
    queryKey: parkingKeys.guestSession(id, token),
    queryFn: ({ signal }) =>
      api.get<SessionReceipt>(`/api/Parking/Guest/Session/${id}`, { ...guest(token ?? ''), signal }),
    enabled: token !== null && id !== null,
    refetchOnWindowFocus: 'always',
  });
}

/** How the guest's card is taken (the provider; with Stripe, its publishable key): one answer per server. */
export function useGuestPayment(token: string) {
  return useQuery({
    queryKey: parkingKeys.guestPayment,
    queryFn: ({ signal }) => api.get<GuestPayment>('/api/Parking/Guest/Payment', { ...guest(token), signal }),
    staleTime: Infinity,
  });
}

export const useSendGuestCode = () => useMutation({ mutationFn: sendGuestCode });
export const useVerifyGuest = () =>
  useMutation({ mutationFn: (v: { phone: string; code: string }) => verifyGuest(v.phone, v.code) });
export const useQuoteGuest = () =>
  useMutation({ mutationFn: (v: { token: string; body: GuestQuoteRequest }) => quoteGuest(v.token, v.body) });
export const useStopGuest = () =>
  useMutation({ mutationFn: (v: { token: string; id: number }) => stopGuest(v.token, v.id) });
export const usePayGuest = () =>
  useMutation({
    /** A typed card (tokenized first) or the one-time card an express wallet gave (`expressToken`, kept nowhere). */
    mutationFn: async (v: { token: string; quoteId: string } & ({ card: SandboxCard } | { expressToken: string })) =>
      startGuest(
        v.token,
        v.quoteId,
        'expressToken' in v
          ? { ExpressToken: v.expressToken }
          : { CardToken: (await tokenizeSandboxCard(v.card)).Token },
      ),
  });

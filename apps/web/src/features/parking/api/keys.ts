import type { AmendQuoteRequest, GuestExtendQuoteRequest, QuoteRequest } from '@parkit/contract';

/** React Query keys of parking (one place, so what a payment refreshes finds what a screen loaded). */
export const parkingKeys = {
  active: ['parking', 'active'] as const,
  session: (id: number) => ['parking', 'session', id] as const,
  /** A session's proof of payment, per end time: an extension signs a new one. */
  proof: (id: number, endsAt: string) => ['parking', 'proof', id, endsAt] as const,
  quote: (body: QuoteRequest) => ['parking', 'quote', body] as const,
  amendQuote: (body: AmendQuoteRequest) => ['parking', 'amend-quote', body] as const,
  autoStart: (zoneId: number) => ['parking', 'auto-start', zoneId] as const,
  operator: ['parking', 'operator'] as const,
  zone: (id: number) => ['parking', 'zones', 'one', id] as const,
  nearby: (lat: number, lng: number, radius: number, limit: number) =>
    ['parking', 'zones', 'nearby', lat, lng, radius, limit] as const,
  search: (q: string, lat: string | null, lng: string | null, limit: number) =>
    ['parking', 'zones', 'search', q, lat, lng, limit] as const,
  guestExtendQuote: (body: GuestExtendQuoteRequest | null, token: string) =>
    ['parking', 'guest-extend-quote', body, token] as const,
  guestPayment: ['parking', 'guest-payment'] as const,
  guestSession: (id: number | null, token: string | null) => ['parking', 'guest-session', id, token] as const,
};

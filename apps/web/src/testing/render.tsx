import type { ReactNode } from 'react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createMemoryRouter, RouterProvider, useLocation } from 'react-router';
import { render } from '@testing-library/react';
import { Toaster } from '../lib/toasts.tsx';
import { vi } from 'vitest';
import { connectSession } from '../lib/session-store.ts';

type Answer = [status: number, body?: unknown, headers?: Record<string, string>];
type Reply = Answer | Promise<Answer>;
export interface Call {
  method: string;
  path: string;
  body: unknown;
}

function parseBody(body: unknown): unknown {
  if (typeof body !== 'string') return undefined;
  try {
    return JSON.parse(body);
  } catch {
    return Object.fromEntries(new URLSearchParams(body)); // the form-encoded token POST
  }
}

/**
 * Component tests answer the app's fetches from a table ("POST /token" → reply); a request the table does not
 * know fails the test loudly. Calls are recorded in order.
 */
export function stubApi(routes: Record<string, (body: unknown) => Reply>) {
  const calls: Call[] = [];
  vi.stubGlobal('fetch', async (input: string, init?: RequestInit) => {
    const method = init?.method ?? 'GET';
    const body = parseBody(init?.body);
    calls.push({ method, path: input, body });
    const handler = routes[`${method} ${input}`];
    if (!handler) throw new Error(`unexpected request ${method} ${input}`);
    const [status, reply, headers] = await handler(body);
    return new Response(reply === undefined ? null : JSON.stringify(reply), {
      status,
      headers: { 'content-type': 'application/json', ...headers },
    });
  });
  return calls;
}

function Where() {
  const l = useLocation();
  const state = l.state ? JSON.stringify(l.state) : '';
  return <output data-testid="location">{l.pathname + l.search + state}</output>;
}

/** A component that reads the query cache (the currency of useMoney, for one), with a fresh one. */
export function renderWithData(element: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(<QueryClientProvider client={client}>{element}</QueryClientProvider>);
}

/** One screen at a URL with a fresh query cache; any other route just shows where we went. */
export function renderAt(url: string, path: string, element: ReactNode) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  // As AppProvider: the session lives in this cache, seeded from what the test stored.
  connectSession(client);
  const router = createMemoryRouter(
    [
      {
        path,
        element: (
          <>
            {element}
            <Where />
          </>
        ),
      },
      { path: '*', element: <Where /> },
    ],
    { initialEntries: [url] },
  );
  return render(
    <QueryClientProvider client={client}>
      <RouterProvider router={router} />
      <Toaster />
    </QueryClientProvider>,
  );
}

/** GET /api/Account/Details as the server answers it. */
export const details = (over: Record<string, unknown> = {}) => ({
  MemberId: 7,
  EmailAddress: 'riley@example.test',
  PhoneNumber: '5551234567',
  FirstName: 'Riley',
  LastName: 'Tester',
  UserName: 'riley',
  AddressLine1: '',
  AddressLine2: '',
  City: '',
  State: '',
  ZipCode: '',
  MinBalance: '0',
  Balance: 0,
  ClientId: 1,
  VehicleCount: 0,
  ...over,
});

export const token = (amr: 'pwd' | 'otp' = 'pwd') => ({
  access_token: 'header.payload.sig',
  token_type: 'Bearer' as const,
  expires_in: 900,
  refresh_token: 'r',
  member_id: 7,
  amr,
});

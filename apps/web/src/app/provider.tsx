import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { ApiError } from '../lib/api-client.ts';
import { connectSession } from '../lib/session-store.ts';

/**
 * Server state (React Query) and the session in it. A client error is not retried; a dropped
 * connection once.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  const [client] = useState(() => {
    const c = new QueryClient({
      defaultOptions: {
        queries: {
          staleTime: 30_000,
          refetchOnWindowFocus: false,
          retry: (count, err) => !(err instanceof ApiError && err.status !== null) && count < 1,
        },
        mutations: { retry: false },
      },
    });
    // The signed-in member lives in this cache (lib/session-store.ts); for the app's lifetime.
    connectSession(c);
    return c;
  });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type {
  AddMoneyResponse,
  AutoReloadRequest,
  CardSummary,
  CurrentSubscription,
  PlanSummary,
  Spending,
  TransactionsPage,
} from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { queryKeys } from '../../../lib/query-keys.ts';
import { walletKeys } from './keys.ts';

/** Wallet, cards and plans: every request of the wallet screens. */

/** After money moved: the balance (Details), the ledger, the chart, the plan. */
export function refreshWallet(qc: QueryClient) {
  return Promise.all([
    qc.invalidateQueries({ queryKey: queryKeys.accountDetails }),
    qc.invalidateQueries({ queryKey: walletKeys.all }),
  ]);
}

const PAGE = 10;
export function useTransactions(enabled = true) {
  return useInfiniteQuery({
    queryKey: walletKeys.transactions,
    enabled,
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) =>
      api.get<TransactionsPage>(`/api/Wallet/Transactions?limit=${PAGE}${pageParam ? `&cursor=${pageParam}` : ''}`, {
        signal,
        showError: false,
      }),
    getNextPageParam: (last) => last.NextCursor,
  });
}

export const useSpending = (enabled = true) =>
  useQuery({
    queryKey: walletKeys.spending,
    enabled,
    queryFn: ({ signal }) => api.get<Spending>('/api/Wallet/Spending', { signal, showError: false }),
  });

export const useCards = (enabled = true) =>
  useQuery({
    queryKey: walletKeys.cards,
    enabled,
    queryFn: ({ signal }) => api.get<CardSummary[]>('/api/PaymentMethods/List', { signal, showError: false }),
  });

export const usePlans = () =>
  useQuery({
    queryKey: walletKeys.plans,
    queryFn: ({ signal }) => api.get<PlanSummary[]>('/api/Subscription/Plans', { signal, showError: false }),
  });

export const useCurrentPlan = (enabled = true) =>
  useQuery({
    queryKey: walletKeys.currentPlan,
    enabled,
    queryFn: ({ signal }) => api.get<CurrentSubscription>('/api/Subscription/Current', { signal, showError: false }),
  });

/** A money-moving POST: the caller keeps one Idempotency-Key per intent (see useIntentKey). */
const idempotentPost = <T>(path: string, body: unknown, key: string) =>
  api.post<T>(path, body, { showError: false, headers: { 'idempotency-key': key } });

export function useAddMoney() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({
      amount,
      paymentMethodId,
      expressToken,
      key,
    }: {
      amount: string;
      paymentMethodId?: number | undefined;
      /** An express payment's one-time card (Apple Pay, Google Pay, the sandbox's test wallet). */
      expressToken?: string | undefined;
      key: string;
    }) =>
      idempotentPost<AddMoneyResponse>(
        '/api/Wallet/AddMoney',
        {
          Amount: amount,
          ...(expressToken
            ? { ExpressToken: expressToken }
            : paymentMethodId
              ? { PaymentMethodId: paymentMethodId }
              : {}),
        },
        key,
      ),
    onSuccess: () => refreshWallet(qc),
  });
}

export function useSubscribe() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({
      planId,
      expressToken,
      key,
    }: {
      planId: number;
      /** An express payment's one-time card for the first month (the renewals come from the default card). */
      expressToken?: string | undefined;
      key: string;
    }) =>
      idempotentPost<CurrentSubscription>(
        '/api/Subscription/Subscribe',
        { PlanId: planId, ...(expressToken ? { ExpressToken: expressToken } : {}) },
        key,
      ),
    onSuccess: () => refreshWallet(qc),
  });
}

export function useCancelPlan() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<CurrentSubscription>('/api/Subscription/Cancel', {}),
    onSuccess: () => refreshWallet(qc),
  });
}

export function useSaveAutoReload() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: AutoReloadRequest) =>
      api.post<{ message: string }>('/api/Account/AutoReload', body, { showError: false }),
    onSuccess: () => refreshWallet(qc),
  });
}

export function useAddCard() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: { Token: string; MakeDefault: boolean }) =>
      api.post<CardSummary>('/api/PaymentMethods/Add', body, { showError: false }),
    onSuccess: () => refreshWallet(qc),
  });
}

export function useSetDefaultCard() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<CardSummary>('/api/PaymentMethods/SetDefault', { PaymentMethodId: id }),
    onSuccess: () => refreshWallet(qc),
  });
}

export function useDeleteCard() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) =>
      api.post<{ message: string; AutoReloadTurnedOff: boolean }>('/api/PaymentMethods/Delete', {
        PaymentMethodId: id,
      }),
    onSuccess: () => refreshWallet(qc),
  });
}

/** Stripe's publishable key, for Stripe.js: it comes with the member's SetupIntent answer. */
export const memberPublishableKey = () => createSetupIntent().then((i) => i.PublishableKey);

export const createSetupIntent = () =>
  api.post<{ ClientSecret: string; PublishableKey: string }>(
    '/api/PaymentMethods/SetupIntent',
    {},
    { showError: false },
  );

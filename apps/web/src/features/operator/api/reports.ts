import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { OperatorDashboard, OperatorReport } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { operatorKeys } from './keys.ts';

/** How often the dashboard asks again while it is open: it is live, not a snapshot. */
export const DASHBOARD_REFRESH_MS = 15_000;

/** GET /api/Operator/{id}/Dashboard, refreshed every DASHBOARD_REFRESH_MS (and when the window regains focus). */
export const useDashboard = (operatorId: number) =>
  useQuery({
    queryKey: operatorKeys.dashboard(operatorId),
    queryFn: ({ signal }) =>
      api.get<OperatorDashboard>(`/api/Operator/${operatorId}/Dashboard`, { showError: false, signal }),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });

/** A report's query string: From, To and the zones (none: all). */
export const reportQuery = (from: string, to: string, zoneIds: readonly number[]) =>
  new URLSearchParams({ From: from, To: to, ...(zoneIds.length ? { Zones: zoneIds.join(',') } : {}) }).toString();

/** GET /api/Operator/{id}/Report?From&To&Zones; the figures shown stay while the next range loads. */
export const useReport = (operatorId: number, query: string) =>
  useQuery({
    queryKey: operatorKeys.report(operatorId, query),
    queryFn: ({ signal }) =>
      api.get<OperatorReport>(`/api/Operator/${operatorId}/Report?${query}`, { showError: false, signal }),
    placeholderData: keepPreviousData,
  });

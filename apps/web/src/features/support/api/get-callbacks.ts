import { useQuery } from '@tanstack/react-query';
import type { CallBack } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { supportKeys } from './keys.ts';

/** GET /api/Support/CallBacks: the member's requests and their status. */
export const getCallBacks = (signal?: AbortSignal) =>
  api.get<CallBack[]>('/api/Support/CallBacks', { showError: false, signal });

export const useCallBacks = (enabled = true) =>
  useQuery({ queryKey: supportKeys.callBacks, queryFn: ({ signal }) => getCallBacks(signal), enabled });

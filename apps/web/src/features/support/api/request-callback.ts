import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CallBack, CallBackRequest } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { supportKeys } from './keys.ts';

/** POST /api/Support/CallBack. Errors go to the form. */
export const requestCallBack = (body: CallBackRequest) =>
  api.post<CallBack>('/api/Support/CallBack', body, { showError: false });

export function useRequestCallBack() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: requestCallBack,
    onSuccess: () => qc.invalidateQueries({ queryKey: supportKeys.callBacks }),
  });
}

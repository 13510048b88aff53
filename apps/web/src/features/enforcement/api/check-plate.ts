import { useMutation } from '@tanstack/react-query';
import { ENFORCEMENT_KEY_HEADER, type EnforcementAnswer, type EnforcementQuery } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';

export function checkPlate(key: string, q: EnforcementQuery): Promise<EnforcementAnswer> {
  const qs = new URLSearchParams({ zone: q.zone, plate: q.plate, state: q.state });
  // The screen says what went wrong itself (a bad key is not the member's 'Unauthorized').
  return api.get<EnforcementAnswer>(`/api/Enforcement/Check?${qs}`, {
    showError: false,
    headers: { [ENFORCEMENT_KEY_HEADER]: key },
  });
}

/** A check is a question asked now: never cached, each press asks again (and is audited). */
export const useCheckPlate = () =>
  useMutation({ mutationFn: ({ key, q }: { key: string; q: EnforcementQuery }) => checkPlate(key, q) });

import { useInfiniteQuery } from '@tanstack/react-query';
import type { AuditPage } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';
import { operatorKeys } from './keys.ts';

/** GET /api/Operator/{id}/Audit, newest first, a page at a time ("Load older"). */
export const useAuditLog = (operatorId: number) =>
  useInfiniteQuery({
    queryKey: operatorKeys.audit(operatorId),
    queryFn: ({ pageParam, signal }) =>
      api.get<AuditPage>(
        `/api/Operator/${operatorId}/Audit?limit=50${pageParam === null ? '' : `&before=${pageParam}`}`,
        { showError: false, signal },
      ),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.Next,
  });

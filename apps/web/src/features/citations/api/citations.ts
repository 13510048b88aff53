import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Citation, CitationFile, PayCitationResponse, PayFromRequest } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';

/** React Query keys of the driver's citations. */
export const citationKeys = { all: ['citations'] as const };

/** GET /api/Citations/List: the citations of the member's vehicles' plates. */
export const useCitations = () =>
  useQuery({
    queryKey: citationKeys.all,
    queryFn: ({ signal }) => api.get<Citation[]>('/api/Citations/List', { showError: false, signal }),
  });

/** The URL of a citation's file (fetched with the token: components/ui/private-file.tsx). */
export const citationFileUrl = (citationId: number, fileId: string) => `/api/Citations/${citationId}/Files/${fileId}`;

/** GET /api/Citations/{id}/ProofPack.pdf: the citation's proof pack for a contest, in the app's language. */
export const proofPackUrl = (citationId: number, lang: string) =>
  `/api/Citations/${citationId}/ProofPack.pdf?lang=${lang}`;

/** POST /api/Citations/{id}/Pay from the wallet, or by the saved card `PaymentMethodId`, one Idempotency-Key per intent. */
export function usePayCitation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ citationId, key, body }: { citationId: number; key: string; body: PayFromRequest }) =>
      api.post<PayCitationResponse>(`/api/Citations/${citationId}/Pay`, body, {
        showError: false,
        headers: { 'idempotency-key': key },
      }),
    onSettled: () => qc.invalidateQueries({ queryKey: citationKeys.all }),
  });
}

/** Uploads the attachments, then POST /api/Citations/{id}/Contest with the reason. */
export function useContestCitation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ citationId, reason, files }: { citationId: number; reason: string; files: File[] }) => {
      const ids: string[] = [];
      for (const f of files)
        ids.push(
          (await api.upload<CitationFile>('/api/Citations/Attachment', 'file', f, {}, { showError: false })).FileId,
        );
      return api.post<Citation>(
        `/api/Citations/${citationId}/Contest`,
        { Reason: reason, AttachmentIds: ids },
        { showError: false },
      );
    },
    onSettled: () => qc.invalidateQueries({ queryKey: citationKeys.all }),
  });
}

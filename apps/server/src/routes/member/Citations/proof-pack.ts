import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CitationParams, ErrorResponse, ReceiptQuery } from '@parkit/contract';
import * as citations from '../../../citations/index.ts';
import { pickLanguage } from '../../../lib/language.ts';
import { mediaAnswer } from '../../common/media-types.ts';

const CURRENCY = '$';

/**
 * A driver's proof pack for contesting one of their citations (memberOnly scope, issue 30;
 * docs/citations.md#the-proof-pack): a PDF of ParkIt's own records of the plate that day, in the
 * receipt's languages (?lang=, else Accept-Language). Another member's citation is 404.
 */
const proofPackRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/:citationId/ProofPack.pdf',
    {
      schema: {
        tags: ['Citations'],
        summary:
          'The proof pack of one of the member’s citations as a PDF: the citation, the sessions, permits, visitor days and plate checks of its plate that day (lang=en|hi|es, else Accept-Language)',
        params: CitationParams,
        querystring: ReceiptQuery,
        response: {
          200: mediaAnswer('The proof pack as a PDF, as an attachment', ['application/pdf'], 'binary'),
          404: ErrorResponse,
        },
      },
    },
    async (req, reply) => {
      const now = new Date();
      const pack = await citations.proofPackOf(app.db, req.member.memberId, req.params.citationId, now);
      const lang = pickLanguage(req.query.lang, req.headers['accept-language']);
      const pdf = await citations.proofPackPdf(pack, lang, CURRENCY, now);
      return reply
        .header('content-disposition', `attachment; filename="parkit-proof-pack-${pack.citation.id}.pdf"`)
        .type('application/pdf')
        .send(pdf as unknown as string);
    },
  );
};

export default proofPackRoutes;

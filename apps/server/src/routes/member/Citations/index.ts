import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  Citation,
  CitationFile,
  CitationFileParams,
  CitationList,
  CitationParams,
  ContestRequest,
  ErrorResponse,
  MAX_ATTACHMENT_BYTES,
  PayCitationResponse,
  PayFromRequest,
} from '@parkit/contract';
import * as citations from '../../../citations/index.ts';
import { MONEY_RATE_LIMIT } from '../../../plugins/rate-limit.ts';
import { payFromWalletOrCard } from '../../../wallet/index.ts';
import {
  citationFileAnswer,
  readCitationUpload,
  refuseType,
  sendCitationFile,
  type CitationOptions,
} from '../../common/Citations/common.ts';

const tags = ['Citations'];

/**
 * A driver's citations (memberOnly scope): those of the plates of the member's vehicles,
 * their evidence, paying one from the wallet (Idempotency-Key, the ledger) and contesting one with
 * a reason and attachments. Another member's citation is 404.
 */
const citationRoutes: FastifyPluginAsyncZod<CitationOptions> = async (app, { files }) => {
  await app.register(multipart, {
    limits: { fileSize: MAX_ATTACHMENT_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6 },
  });

  app.get(
    '/List',
    {
      schema: {
        tags,
        summary: 'The citations of the member’s vehicles’ plates, newest first',
        response: { 200: CitationList },
      },
    },
    async (req) => citations.listMemberCitations(app.db, req.member.memberId),
  );

  app.get(
    '/:citationId',
    {
      schema: {
        tags,
        summary: 'One citation of the member’s vehicles, with its evidence',
        params: CitationParams,
        response: { 200: Citation, 404: ErrorResponse },
      },
    },
    async (req) => citations.getMemberCitation(app.db, req.member.memberId, req.params.citationId),
  );

  app.get(
    '/:citationId/Files/:fileId',
    {
      schema: {
        tags,
        summary: 'A photo or attachment of one of the member’s citations',
        params: CitationFileParams,
        response: { 200: citationFileAnswer, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      await citations.getMemberCitation(app.db, req.member.memberId, req.params.citationId);
      return sendCitationFile(reply, files, await files.find(app.db, req.params.citationId, req.params.fileId));
    },
  );

  app.post(
    '/:citationId/Pay',
    {
      config: { rateLimit: MONEY_RATE_LIMIT },
      schema: {
        tags,
        summary:
          'Pay a citation from the wallet, or by a saved card (PaymentMethodId) (Idempotency-Key header required)',
        description:
          'By card the amount due is charged to the card, credited to the wallet and paid from it in one transaction (the balance is unchanged). A decline answers 402 and changes nothing.',
        params: CitationParams,
        body: PayFromRequest,
        response: {
          200: PayCitationResponse,
          402: ErrorResponse,
          404: ErrorResponse,
          409: ErrorResponse,
          422: ErrorResponse,
          503: ErrorResponse,
        },
      },
    },
    async (req, reply) => {
      const memberId = req.member.memberId;
      const { citationId } = req.params;
      return payFromWalletOrCard(
        req,
        reply,
        `Citations/Pay/${citationId}`,
        req.body?.PaymentMethodId,
        {
          what: `citation:${citationId}`,
          description: 'ParkIt citation',
          amountDue: () => citations.citationDueCents(app.db, memberId, citationId),
        },
        (tx, key, chargeId) => citations.payCitation(tx, memberId, citationId, key, new Date(), chargeId),
      );
    },
  );

  app.post(
    '/Attachment',
    {
      bodyLimit: MAX_ATTACHMENT_BYTES + 64 * 1024,
      schema: {
        tags,
        summary: 'Upload an attachment for a contest (PNG, JPEG, GIF, WebP or PDF, 5 MB at most, under the key "file")',
        consumes: ['multipart/form-data'],
        upload: { field: 'file', description: 'The image or PDF' },
        response: { 201: CitationFile, 413: ErrorResponse, 415: ErrorResponse },
      },
    },
    async (req, reply) => {
      const { bytes, name } = await readCitationUpload(req);
      const saved = await files.save(
        app.db,
        { operatorId: null, kind: 'contest', uploadedBy: req.member.memberId },
        bytes,
        name,
      );
      if (!saved) refuseType();
      return reply.code(201).send(saved);
    },
  );

  app.post(
    '/:citationId/Contest',
    {
      schema: {
        tags,
        summary: 'Contest a citation with a reason and uploaded attachments (once); a manager decides',
        params: CitationParams,
        body: ContestRequest,
        response: { 200: Citation, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req) => citations.contestCitation(app.db, req.member.memberId, req.params.citationId, req.body, new Date()),
  );
};

export default citationRoutes;

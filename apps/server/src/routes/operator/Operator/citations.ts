import multipart from '@fastify/multipart';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  Citation,
  IdempotencyHeaders,
  CitationFile,
  CitationList,
  DecideContestRequest,
  ErrorResponse,
  IssueCitationRequest,
  MAX_ATTACHMENT_BYTES,
  OPERATOR_CAN,
  OperatorCitationFileParams,
  OperatorCitationParams,
  OperatorCitationQuery,
  OperatorParams,
  Violation,
  ViolationList,
  ViolationParams,
  ViolationRequest,
} from '@parkit/contract';
import * as citations from '../../../citations/index.ts';
import { findById } from '../../../members/index.ts';
import { MONEY_RATE_LIMIT } from '../../../plugins/rate-limit.ts';
import { IDEMPOTENCY_HEADER, idempotencyKeyOf, withIdempotency } from '../../../wallet/index.ts';
import {
  citationFileAnswer,
  readCitationUpload,
  refuseType,
  sendCitationFile,
  type CitationOptions,
} from '../../common/Citations/common.ts';

const tags = ['Operator citations'];

/**
 * Citations in the console (operatorOnly scope): the operator's violations list (owners
 * and managers change it), officers' photos and citations (refused, 409, when a right to park
 * covers the plate), the list, a citation's evidence, and a manager's decision on a contest.
 */
const operatorCitationRoutes: FastifyPluginAsyncZod<CitationOptions> = async (app, { files }) => {
  await app.register(multipart, {
    limits: { fileSize: MAX_ATTACHMENT_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6 },
  });
  const actor = async (req: FastifyRequest) => ({
    id: req.member.memberId,
    name: (await findById(app.db, req.member.memberId))?.userName ?? '',
  });

  app.get(
    '/:operatorId/Violations',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: "The operator's violations, the retired last",
        params: OperatorParams,
        response: { 200: ViolationList },
      },
    },
    async (req) => citations.listViolations(app.db, req.staff.operatorId),
  );

  app.post(
    '/:operatorId/Violations',
    {
      config: { operatorRoles: OPERATOR_CAN.citations },
      schema: {
        tags,
        summary: 'Add a violation: a code, a description, its fine, the days to pay and the late fee',
        params: OperatorParams,
        body: ViolationRequest,
        response: { 201: Violation, 409: ErrorResponse },
      },
    },
    async (req, reply) =>
      reply.code(201).send(await citations.createViolation(app.db, req.staff.operatorId, await actor(req), req.body)),
  );

  app.post(
    '/:operatorId/Violations/:violationId',
    {
      config: { operatorRoles: OPERATOR_CAN.citations },
      schema: {
        tags,
        summary: 'Change a violation (citations already issued keep their fine)',
        params: ViolationParams,
        body: ViolationRequest,
        response: { 200: Violation, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req) =>
      citations.updateViolation(app.db, req.staff.operatorId, await actor(req), req.params.violationId, req.body),
  );

  app.post(
    '/:operatorId/Violations/:violationId/Retire',
    {
      config: { operatorRoles: OPERATOR_CAN.citations },
      schema: {
        tags,
        summary: 'Retire a violation: no new citation names it',
        params: ViolationParams,
        response: { 200: Violation, 404: ErrorResponse },
      },
    },
    async (req) =>
      citations.retireViolation(app.db, req.staff.operatorId, await actor(req), req.params.violationId, new Date()),
  );

  app.post(
    '/:operatorId/Citations/Photos',
    {
      config: { operatorRoles: OPERATOR_CAN.cite },
      bodyLimit: MAX_ATTACHMENT_BYTES + 64 * 1024,
      schema: {
        tags,
        summary:
          'Upload a photo for a citation (PNG, JPEG, GIF, WebP or PDF, 5 MB at most, under the key "file"; checked by its content)',
        params: OperatorParams,
        consumes: ['multipart/form-data'],
        upload: { field: 'file', description: 'The photo' },
        response: { 201: CitationFile, 413: ErrorResponse, 415: ErrorResponse },
      },
    },
    async (req, reply) => {
      const { bytes, name } = await readCitationUpload(req);
      const saved = await files.save(
        app.db,
        { operatorId: req.staff.operatorId, kind: 'photo', uploadedBy: req.member.memberId },
        bytes,
        name,
      );
      if (!saved) refuseType();
      return reply.code(201).send(saved);
    },
  );

  app.post(
    '/:operatorId/Citations',
    {
      config: { operatorRoles: OPERATOR_CAN.cite },
      schema: {
        tags,
        summary:
          'Cite a plate in a zone for a violation, with at least one uploaded photo; 409 when a right to park covers the plate then. ObservedAt: the moment seen (a citation written offline). An Idempotency-Key header makes a resend answer the first citation',
        params: OperatorParams,
        headers: IdempotencyHeaders,
        body: IssueCitationRequest,
        response: { 201: Citation, 404: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse },
      },
    },
    async (req, reply) => {
      const operatorId = req.staff.operatorId;
      const who = await actor(req);
      if (req.headers[IDEMPOTENCY_HEADER] === undefined)
        return reply.code(201).send(await citations.issueCitation(app.db, operatorId, who, req.body));
      const key = idempotencyKeyOf(req);
      const out = await withIdempotency<Citation>(
        app.db,
        { memberId: req.member.memberId, key, scope: `Operator/${operatorId}/Citations`, body: req.body },
        async (tx) => ({
          statusCode: 201,
          body: await citations.getOperatorCitation(
            tx,
            operatorId,
            await citations.issueCitationIn(tx, operatorId, who, req.body),
          ),
        }),
      );
      if (out.replayed) void reply.header('idempotent-replayed', 'true');
      return reply.code(201).send(out.body);
    },
  );

  app.get(
    '/:operatorId/Citations',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: "The operator's citations, newest first (200 at most), by status",
        params: OperatorParams,
        querystring: OperatorCitationQuery,
        response: { 200: CitationList },
      },
    },
    async (req) => citations.listOperatorCitations(app.db, req.staff.operatorId, req.query),
  );

  app.get(
    '/:operatorId/Citations/:citationId',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: 'One citation: its evidence, payment and contest',
        params: OperatorCitationParams,
        response: { 200: Citation, 404: ErrorResponse },
      },
    },
    async (req) => citations.getOperatorCitation(app.db, req.staff.operatorId, req.params.citationId),
  );

  app.get(
    '/:operatorId/Citations/:citationId/Files/:fileId',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: "A citation's photo or contest attachment",
        params: OperatorCitationFileParams,
        response: { 200: citationFileAnswer, 404: ErrorResponse },
      },
    },
    async (req, reply) => {
      await citations.getOperatorCitation(app.db, req.staff.operatorId, req.params.citationId);
      return sendCitationFile(reply, files, await files.find(app.db, req.params.citationId, req.params.fileId));
    },
  );

  app.post(
    '/:operatorId/Citations/:citationId/Decide',
    {
      config: { operatorRoles: OPERATOR_CAN.citations, rateLimit: MONEY_RATE_LIMIT },
      schema: {
        tags,
        summary:
          'Decide a contest: upheld, cancelled (what was paid goes back) or reduced (a new fine; the overpayment goes back); the driver is told. What goes back goes to the card that paid, else to the wallet. The Idempotency-Key header (required) makes a resend answer the first decision',
        params: OperatorCitationParams,
        headers: IdempotencyHeaders,
        body: DecideContestRequest,
        response: { 200: Citation, 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse, 422: ErrorResponse },
      },
    },
    async (req, reply) => {
      // A decision can move money back (a refund): it takes a key, as every money write does.
      const key = { memberId: req.member.memberId, key: idempotencyKeyOf(req), body: req.body };
      const out = await citations.decideContest(
        app.wallet,
        req.staff.operatorId,
        await actor(req),
        req.params.citationId,
        req.body,
        new Date(),
        key,
      );
      if (out.replayed) void reply.header('idempotent-replayed', 'true');
      return out.citation;
    },
  );
};

export default operatorCitationRoutes;

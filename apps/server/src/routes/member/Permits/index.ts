import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ApplyPermitRequest,
  Attachment,
  ErrorResponse,
  IdempotencyHeaders,
  MAX_ATTACHMENT_BYTES,
  Permit,
  PermitList,
  PERMIT_MESSAGES as M,
  PayFromRequest,
  PermitParams,
  PermitTypeList,
  PermitTypesQuery,
  VisitorDay,
  VisitorDayList,
  VisitorDayRequest,
} from '@parkit/contract';
import { cancelCoveredCitations } from '../../../citations/index.ts';
import { HttpError } from '../../../lib/http-error.ts';
import * as permits from '../../../permits/index.ts';
import { sniffType } from '../../../support/index.ts';
import { payFromWalletOrCard } from '../../../wallet/index.ts';
import { MONEY_RATE_LIMIT } from '../../../plugins/rate-limit.ts';
import { moneyRefusals as refused } from '../../common/money-refusals.ts';
import { limitMember, SUPPORT_LIMITS, type SupportOptions } from '../../common/Support/common.ts';
import { readUpload } from '../Support/chat.ts';

const tags = ['Permits'];

/** /api/Permits (docs/permits.md): a driver's permit types, applications, payment and visitor days. */
const permitRoutes: FastifyPluginAsyncZod<SupportOptions> = async (app, { attachments }) => {
  // Multipart for the proof, as support's uploads: one file under the key 'file'.
  await app.register(multipart, {
    limits: { fileSize: MAX_ATTACHMENT_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 6 },
  });
  app.get(
    '/Types',
    {
      schema: {
        tags,
        summary: 'The permit types a driver may apply for: those covering a zone, or an operator’s',
        querystring: PermitTypesQuery,
        response: { 200: PermitTypeList, 404: ErrorResponse },
      },
    },
    async (req) => permits.typesForDriver(app.db, req.query),
  );

  app.post(
    '/Proof',
    {
      bodyLimit: MAX_ATTACHMENT_BYTES + 64 * 1024,
      schema: {
        tags,
        summary:
          'Upload a proof of address (PDF, PNG or JPEG of at most 5 MB) under the key "file"; checked by its content',
        consumes: ['multipart/form-data'],
        upload: { field: 'file', description: 'The PDF or image' },
        response: { 201: Attachment, 413: ErrorResponse, 415: ErrorResponse },
      },
    },
    async (req, reply) => {
      const memberId = req.member.memberId;
      await limitMember(app, SUPPORT_LIMITS.attachment, memberId);
      const { bytes, name } = await readUpload(req);
      // Support's content check, narrowed to the types a proof may be.
      const sniffed = sniffType(bytes.subarray(0, 16));
      if (!sniffed || !(permits.PROOF_TYPES as readonly string[]).includes(sniffed.type))
        throw new HttpError(415, M.proofType, [{ field: 'file', message: M.proofType }]);
      const saved = await attachments.save(app.db, memberId, memberId, bytes, name);
      if (!saved) throw new HttpError(415, M.proofType, [{ field: 'file', message: M.proofType }]);
      return reply.code(201).send(saved);
    },
  );

  app.post(
    '/Apply',
    {
      schema: {
        tags,
        summary: 'Apply for a permit: its type, plates (up to the type’s limit), zones and proof',
        body: ApplyPermitRequest,
        response: { 201: Permit, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req, reply) => reply.code(201).send(await permits.apply(app.db, attachments, req.member.memberId, req.body)),
  );

  app.get(
    '/List',
    {
      schema: {
        tags,
        summary: 'The driver’s permits and applications with their status',
        response: { 200: PermitList },
      },
    },
    async (req) => permits.myPermits(app.db, req.member.memberId),
  );

  app.post(
    '/:permitId/Pay',
    {
      config: { rateLimit: MONEY_RATE_LIMIT },
      schema: {
        tags,
        summary:
          'Pay an approved permit from the wallet, or by a saved card (PaymentMethodId), once per Idempotency-Key: it is active from now',
        description:
          'By card the price is charged to the card, credited to the wallet and paid from it in one transaction (the balance is unchanged). A decline answers 402 and changes nothing.',
        headers: IdempotencyHeaders,
        params: PermitParams,
        body: PayFromRequest,
        response: { 200: Permit, ...refused },
      },
    },
    async (req, reply) => {
      const memberId = req.member.memberId;
      const { permitId } = req.params;
      return payFromWalletOrCard(
        req,
        reply,
        `Permits/Pay/${permitId}`,
        req.body?.PaymentMethodId,
        {
          what: `permit:${permitId}`,
          description: 'ParkIt permit',
          amountDue: () => permits.permitDueCents(app.db, memberId, permitId),
        },
        (tx, key) => permits.payPermit(tx, memberId, permitId, key),
      );
    },
  );

  app.get(
    '/:permitId/VisitorDays',
    {
      schema: {
        tags,
        summary: 'The visitor days a permit has given',
        params: PermitParams,
        response: { 200: VisitorDayList, 404: ErrorResponse },
      },
    },
    async (req) => permits.visitorDaysOf(app.db, req.member.memberId, req.params.permitId),
  );

  app.post(
    '/:permitId/VisitorDays',
    {
      schema: {
        tags,
        summary:
          'Give a visitor day to a plate for a date (the operator’s local date), up to the permit’s days a month',
        params: PermitParams,
        body: VisitorDayRequest,
        response: { 201: VisitorDay, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const day = await permits.giveVisitorDay(app.db, req.member.memberId, req.params.permitId, req.body);
      // A day given for today may cover a citation already issued today: cancelled now, not at the
      // job's next pass (docs/citations.md#a-right-found-later). The day stands if this fails.
      await cancelCoveredCitations(app.wallet, new Date(), { plates: [day.Plate] }).catch((err: unknown) =>
        req.log.error({ err }, 'citations: automatic cancellation after a visitor day failed'),
      );
      return reply.code(201).send(day);
    },
  );
};

export default permitRoutes;

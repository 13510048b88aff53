import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorResponse,
  HISTORY_MESSAGES as M,
  Id,
  ReceiptQuery,
  SessionFilters,
  SessionsPage,
  SessionsQuery,
} from '@parkit/contract';
import { badRequest, notFound } from '../../../lib/http-error.ts';
import { operatorOfMember, type OperatorRecord } from '../../../zones/index.ts';
import {
  historyPage,
  historyRows,
  toPastSession,
  type HistoryParams,
  receiptOf,
  receiptPdf,
  pickLanguage,
  csvHeaderLine,
  csvRow,
} from '../../../history/index.ts';
import { mediaAnswer } from '../../common/media-types.ts';

const member = { tags: ['Parking'] };
const errors = { 404: ErrorResponse };
const CURRENCY = '$';

/** Turns the checked query into repository parameters; cross-field rules answer 400 naming the field. */
function historyParams(memberId: number, operator: OperatorRecord, q: SessionFilters) {
  if ((q.lat === undefined) !== (q.lng === undefined))
    throw badRequest(q.lat === undefined ? 'lat' : 'lng', M.latLngPair);
  if (q.from && q.to && q.from > q.to) throw badRequest('to', M.fromAfterTo);
  const byDistance = q.sort === 'near' || q.sort === 'far';
  const position = q.lat !== undefined && q.lng !== undefined ? { lat: q.lat, lng: q.lng } : null;
  const origin = byDistance ? (position ?? { lat: operator.lat, lng: operator.lng }) : null;
  const params: Omit<HistoryParams, 'cursor' | 'limit'> = {
    memberId,
    sort: q.sort,
    from: q.from,
    to: q.to,
    vehicle: q.vehicle,
    origin,
    timeZone: operator.timezone,
  };
  return { params, distanceFrom: byDistance ? (position ? ('position' as const) : ('cityCentre' as const)) : null };
}

/**
 * Past parking: the member's history, its CSV and each session's PDF receipt, read on the replicas
 * when there are some (docs/data-access.md#reads-on-replicas).
 */
const historyRoutes: FastifyPluginAsyncZod = async (app) => {
  const operatorFor = async (memberId: number) => {
    const operator = await operatorOfMember(app.reads, memberId);
    if (!operator) throw notFound();
    return operator;
  };

  app.get(
    '/Sessions',
    {
      schema: {
        ...member,
        summary:
          'The member’s parking sessions, keyset-paged: newest, oldest, or by distance (near/far) from lat,lng or the city centre',
        querystring: SessionsQuery,
        response: { 200: SessionsPage, ...errors },
      },
    },
    async (req) => {
      const operator = await operatorFor(req.member.memberId);
      const { params, distanceFrom } = historyParams(req.member.memberId, operator, req.query);
      const { rows, next } = await historyPage(app.reads, {
        ...params,
        cursor: req.query.cursor,
        limit: req.query.limit,
      });
      return { Sessions: rows.map(toPastSession), NextCursor: next, DistanceFrom: distanceFrom };
    },
  );

  app.get(
    '/Sessions.csv',
    {
      schema: {
        ...member,
        summary:
          'The filtered history as CSV (one row per session), for expenses; the header in the app’s language (Accept-Language)',
        querystring: SessionFilters,
        response: {
          200: mediaAnswer('The sessions as CSV, one row per session, as an attachment', ['text/csv'], 'text'),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      const operator = await operatorFor(req.member.memberId);
      const { params } = historyParams(req.member.memberId, operator, req.query);
      const rows = historyRows(app.reads, params);
      const lang = pickLanguage(undefined, req.headers['accept-language']);
      async function* lines() {
        yield csvHeaderLine(lang);
        for await (const r of rows) {
          const s = toPastSession(r);
          yield csvRow({
            sessionId: s.SessionId,
            startedAt: new Date(s.StartedAt),
            endedAt: new Date(s.EndedAt ?? s.EndsAt),
            durationMinutes: s.DurationMinutes,
            zoneNumber: s.ZoneNumber,
            address: s.Address,
            city: s.City,
            state: s.State,
            plateNumber: s.PlateNumber,
            plateState: s.PlateState,
            amountCents: Number(r.paid_cents),
            feeCents: Number(r.fee_cents),
            paidVia: s.PaidVia,
            status: s.Status,
          });
        }
      }
      return (
        reply
          .header('content-disposition', 'attachment; filename="parkit-sessions.csv"')
          .type('text/csv; charset=utf-8')
          // Fastify sends streams and buffers as they are (no serializer): the schema only documents it.
          .send(Readable.from(lines()) as unknown as string)
      );
    },
  );

  app.get(
    '/Session/:id/Receipt.pdf',
    {
      schema: {
        ...member,
        summary:
          'One session’s receipt as a one-page PDF, in the member’s language (lang=en|hi|es, else Accept-Language)',
        params: z.object({ id: Id }),
        querystring: ReceiptQuery,
        response: {
          200: mediaAnswer('The receipt as a one-page PDF, as an attachment', ['application/pdf'], 'binary'),
          ...errors,
        },
      },
    },
    async (req, reply) => {
      // A replica's copy of an ended session is the receipt; one the replica has not seen, or still
      // sees running (a Stop or an extension seconds ago), is read on the primary.
      const copy = await receiptOf(app.reads, req.member.memberId, req.params.id, CURRENCY);
      const receipt =
        copy && copy.endedAt.getTime() <= Date.now()
          ? copy
          : await receiptOf(app.db, req.member.memberId, req.params.id, CURRENCY);
      if (!receipt) throw notFound(M.sessionNotFound);
      const lang = pickLanguage(req.query.lang, req.headers['accept-language']);
      const pdf = await receiptPdf(receipt, lang);
      return reply
        .header('content-disposition', `attachment; filename="parkit-receipt-${receipt.sessionId}.pdf"`)
        .type('application/pdf')
        .send(pdf as unknown as string);
    },
  );
};

export default historyRoutes;

import { Readable } from 'node:stream';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  OPERATOR_CAN,
  OPERATOR_MESSAGES,
  OperatorDashboard,
  OperatorParams,
  OperatorReport,
  ReportQuery,
  reportZoneIds,
} from '@parkit/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../../../lib/http-error.ts';
import * as reports from '../../../reports/index.ts';
import { operatorById } from '../../../zones/index.ts';
import { mediaAnswer } from '../../common/media-types.ts';
import { pickLanguage } from '../../../lib/language.ts';

const tags = ['Operator console'];

/**
 * The operator's money and reports (docs/reports.md), read by every role: the live dashboard, the
 * report of a date range and zone set, and the CSVs of the rows behind its figures. Figures come
 * from the rollups the database keeps; another operator's zone ids are not found (404). Every read
 * here tolerates a few seconds of lag: on the replicas when there are some
 * (docs/data-access.md#reads-on-replicas).
 */
const operatorReportRoutes: FastifyPluginAsyncZod = async (app) => {
  const operatorOf = async (req: FastifyRequest) => {
    const operator = await operatorById(app.reads, req.staff.operatorId);
    if (!operator) throw new HttpError(404, OPERATOR_MESSAGES.operatorNotFound);
    return { id: operator.id, timezone: operator.timezone };
  };
  const rangeOf = (q: ReportQuery) => ({ from: q.From, to: q.To, zoneIds: reportZoneIds(q.Zones) });
  const csv = (reply: FastifyReply, name: string, lines: AsyncIterable<string>) =>
    reply
      .header('content-disposition', `attachment; filename="${name}"`)
      .type('text/csv; charset=utf-8')
      // Fastify sends streams as they are (no serializer): the schema only documents it.
      .send(Readable.from(lines) as unknown as string);

  app.get(
    '/:operatorId/Dashboard',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: 'Sessions running now and occupancy by zone, today’s revenue, and the last 30 days by day',
        params: OperatorParams,
        response: { 200: OperatorDashboard },
      },
    },
    async (req) => reports.dashboard(app.reads, await operatorOf(req)),
  );

  app.get(
    '/:operatorId/Report',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary:
          'The sessions started from From to To (the operator’s days) in the zones chosen: revenue, average stay, turnover, occupancy by hour and weekday',
        params: OperatorParams,
        querystring: ReportQuery,
        response: { 200: OperatorReport },
      },
    },
    async (req) => reports.report(app.reads, await operatorOf(req), rangeOf(req.query)),
  );

  app.get(
    '/:operatorId/Report/Sessions.csv',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: 'The sessions behind a report’s sessions, money and stay, one row each, as CSV',
        params: OperatorParams,
        querystring: ReportQuery,
        response: { 200: mediaAnswer('The report’s sessions as CSV, as an attachment', ['text/csv'], 'text') },
      },
    },
    async (req, reply) => {
      const { range } = await reports.reportRange(app.reads, await operatorOf(req), rangeOf(req.query));
      const rows = reports.sessionRows(app.reads, range);
      async function* lines() {
        yield reports.csvHeader(reports.SESSIONS_CSV_HEADER, pickLanguage(undefined, req.headers['accept-language']));
        for await (const r of rows) yield reports.sessionCsvLine(r);
      }
      return csv(reply, `parkit-report-sessions-${req.query.From}-${req.query.To}.csv`, lines());
    },
  );

  app.get(
    '/:operatorId/Report/Hours.csv',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: 'The hourly rows behind a report’s occupancy (per zone and UTC hour), as CSV',
        params: OperatorParams,
        querystring: ReportQuery,
        response: { 200: mediaAnswer('The report’s hourly rows as CSV, as an attachment', ['text/csv'], 'text') },
      },
    },
    async (req, reply) => {
      const { range } = await reports.reportRange(app.reads, await operatorOf(req), rangeOf(req.query));
      const rows = await reports.hourRows(app.reads, range);
      async function* lines() {
        yield reports.csvHeader(reports.HOURS_CSV_HEADER, pickLanguage(undefined, req.headers['accept-language']));
        for (const r of rows) yield reports.hourCsvLine(r);
      }
      return csv(reply, `parkit-report-hours-${req.query.From}-${req.query.To}.csv`, lines());
    },
  );
};

export default operatorReportRoutes;

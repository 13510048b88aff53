import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  IssueStatementRequest,
  OPERATOR_CAN,
  OperatorParams,
  Statement,
  StatementDetail,
  StatementList,
  StatementParams,
} from '@parkit/contract';
import { pickLanguage } from '../../../lib/language.ts';
import { findById } from '../../../members/index.ts';
import * as wallet from '../../../wallet/index.ts';
import * as zones from '../../../zones/index.ts';
import { mediaAnswer } from '../../common/media-types.ts';

const tags = ['Operator console'];

/**
 * Settlement in the console (operatorOnly scope): every role reads the operator's statements and
 * downloads them (CSV, PDF); owners and managers (OPERATOR_CAN.settle) issue one for a day or a
 * month, once (a second issue of the period answers the first).
 */
const operatorSettlementRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/:operatorId/Statements',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: "The operator's settlement statements, the newest period first",
        params: OperatorParams,
        response: { 200: StatementList },
      },
    },
    async (req) => wallet.statementsOf(app.db, req.staff.operatorId),
  );

  app.post(
    '/:operatorId/Statements',
    {
      config: { operatorRoles: OPERATOR_CAN.settle },
      schema: {
        tags,
        summary:
          'Issue the statement of a day (YYYY-MM-DD) or a month (YYYY-MM): 201 when issued now, 200 with the one issued before',
        params: OperatorParams,
        body: IssueStatementRequest,
        response: { 200: Statement, 201: Statement, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const name = (await findById(app.db, req.member.memberId))?.userName ?? '';
      const out = await wallet.issueStatement(
        app.db,
        req.staff.operatorId,
        { id: req.member.memberId, name },
        req.body,
      );
      return reply.code(out.issued ? 201 : 200).send(out.statement);
    },
  );

  app.get(
    '/:operatorId/Statements/:statementId',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: 'One statement with the lines it covers (ledger entries and Quick Park card movements)',
        params: StatementParams,
        response: { 200: StatementDetail, 404: ErrorResponse },
      },
    },
    async (req) => wallet.statementOf(app.db, req.staff.operatorId, req.params.statementId),
  );

  app.get(
    '/:operatorId/Statements/:statementId/Statement.csv',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary:
          'One statement as CSV: its totals, then one row per line; the labels in the console’s language (Accept-Language)',
        params: StatementParams,
        response: {
          200: mediaAnswer('The statement as CSV, as an attachment', ['text/csv'], 'text'),
          404: ErrorResponse,
        },
      },
    },
    async (req, reply) => {
      const s = await wallet.statementOf(app.db, req.staff.operatorId, req.params.statementId);
      return reply
        .header('content-disposition', `attachment; filename="parkit-statement-${s.StatementId}.csv"`)
        .type('text/csv; charset=utf-8')
        .send(wallet.statementCsv(s, pickLanguage(undefined, req.headers['accept-language'])));
    },
  );

  app.get(
    '/:operatorId/Statements/:statementId/Statement.pdf',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary:
          'One statement as a PDF: its totals, then one row per line, in the console’s language (Accept-Language)',
        params: StatementParams,
        response: {
          200: mediaAnswer('The statement as a PDF, as an attachment', ['application/pdf'], 'binary'),
          404: ErrorResponse,
        },
      },
    },
    async (req, reply) => {
      const s = await wallet.statementOf(app.db, req.staff.operatorId, req.params.statementId);
      const operator = await zones.operatorById(app.db, req.staff.operatorId);
      const pdf = await wallet.statementPdf(
        s,
        { operatorName: operator?.name ?? '', timeZone: operator?.timezone ?? 'UTC', currencySymbol: '$' },
        pickLanguage(undefined, req.headers['accept-language']),
      );
      return reply
        .header('content-disposition', `attachment; filename="parkit-statement-${s.StatementId}.pdf"`)
        .type('application/pdf')
        .send(pdf as unknown as string);
    },
  );
};

export default operatorSettlementRoutes;

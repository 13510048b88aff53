import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ErrorResponse,
  OPERATOR_CAN,
  OPERATOR_MESSAGES,
  OperatorParams,
  OperatorZone,
  OperatorZonePage,
  OperatorZoneParams,
  OperatorZoneQuery,
  ZONE_IMPORT_MESSAGES,
  ZoneExportQuery,
  ZoneImportReport,
  ZoneImportRequest,
  ZoneInput,
} from '@parkit/contract';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { badRequest, conflict, HttpError } from '../../../lib/http-error.ts';
import { findById } from '../../../members/index.ts';
import { CdsFeedError, feedOf, importCdsFeed } from '../../../opendata/index.ts';
import { adoptPresetPolicies } from '../../../pricing/index.ts';
import * as zones from '../../../zones/index.ts';
import { mediaAnswer } from '../../common/media-types.ts';

const tags = ['Operator console'];

/**
 * An operator's zones in the console (operatorOnly scope): every role reads them, owners and
 * managers (OPERATOR_CAN.zones) create, edit and retire them. Each change is audited.
 */
const operatorZoneRoutes: FastifyPluginAsyncZod = async (app) => {
  const actor = async (req: FastifyRequest) => ({
    id: req.member.memberId,
    name: (await findById(app.db, req.member.memberId))?.userName ?? '',
  });
  const operatorOf = async (req: FastifyRequest) => {
    const operator = await zones.operatorById(app.db, req.staff.operatorId);
    if (!operator) throw new HttpError(404, OPERATOR_MESSAGES.operatorNotFound);
    return operator;
  };
  /** A city's CDS Curbs feed (Format cds): the checks and report of `npm run zones:import -- --cds`. */
  const importCds = async (req: FastifyRequest, b: z.output<typeof ZoneImportRequest>): Promise<ZoneImportReport> => {
    let doc: unknown;
    try {
      doc = JSON.parse(b.File.replace(/^\uFEFF/, ''));
    } catch {
      throw badRequest('File', ZONE_IMPORT_MESSAGES.cdsUnreadable);
    }
    let report;
    try {
      report = await importCdsFeed(app.db, await operatorOf(req), feedOf([doc]), {
        skipInvalid: b.SkipRefused,
        dryRun: b.DryRun,
        actor: await actor(req),
        source: b.FileName,
      });
    } catch (err) {
      if (err instanceof CdsFeedError) throw badRequest('File', ZONE_IMPORT_MESSAGES.cdsUnreadable);
      if (err instanceof zones.ZoneNumbersTaken) throw conflict('File', ZONE_IMPORT_MESSAGES.numbersTaken);
      throw err;
    }
    return {
      Format: 'cds',
      Rows: report.rows,
      Valid: report.valid,
      Imported: report.imported,
      Refused: report.refused.map((r) => ({ Row: r.row, ZoneNumber: r.zoneNumber ?? null, Reason: r.reason })),
      IgnoredColumns: [],
      Policies: report.policies,
      DryRun: b.DryRun,
    };
  };

  app.get(
    '/:operatorId/Zones',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: "The operator's zones by number: search by number, name or address, a page at a time",
        params: OperatorParams,
        querystring: OperatorZoneQuery,
        response: { 200: OperatorZonePage },
      },
    },
    async (req) => zones.listOperatorZones(app.db, req.staff.operatorId, req.query),
  );

  app.post(
    '/:operatorId/Zones/Import',
    {
      // A file of up to 2 million characters, as JSON text (escapes can double it).
      bodyLimit: 6 * 1024 * 1024,
      config: { operatorRoles: OPERATOR_CAN.zones },
      schema: {
        tags,
        summary:
          'Import a zone file (GeoJSON or CSV, the columns of npm run zones:import) or, with Format cds, a CDS Curbs feed: a dry run lists the refused rows; then all rows, or the ones that pass',
        params: OperatorParams,
        body: ZoneImportRequest,
        response: { 200: ZoneImportReport, 409: ErrorResponse },
      },
    },
    async (req) => {
      const b = req.body;
      if (b.Format === 'cds') return importCds(req, b);
      let report;
      try {
        report = await zones.importZoneFile(app.db, await operatorOf(req), b.File, {
          fileName: b.FileName,
          skipInvalid: b.SkipRefused,
          dryRun: b.DryRun,
          actor: await actor(req),
        });
      } catch (err) {
        if (err instanceof zones.ZoneFileError) throw badRequest('File', ZONE_IMPORT_MESSAGES.fileUnreadable);
        if (err instanceof zones.ZoneNumbersTaken) throw conflict('File', ZONE_IMPORT_MESSAGES.numbersTaken);
        throw err;
      }
      // The imported zones' rates and paid hours become their price policies (docs/pricing.md#presets).
      if (report.imported > 0) await adoptPresetPolicies(app.db);
      return {
        Format: report.format,
        Rows: report.rows,
        Valid: report.valid,
        Imported: report.imported,
        Refused: report.refused.map((r) => ({ Row: r.row, ZoneNumber: r.zoneNumber ?? null, Reason: r.reason })),
        IgnoredColumns: report.ignoredColumns,
        DryRun: b.DryRun,
      };
    },
  );

  app.get(
    '/:operatorId/Zones/Export',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: "The operator's zones as a zone file (GeoJSON or CSV) that Import reads again",
        params: OperatorParams,
        querystring: ZoneExportQuery,
        response: {
          200: mediaAnswer('The zones as an attachment', ['application/geo+json', 'text/csv'], 'text'),
        },
      },
    },
    async (req, reply) => {
      const { format, retired } = req.query;
      const text = await zones.exportZoneFile(app.db, req.staff.operatorId, { format, retired });
      const csv = format === 'csv';
      return reply
        .header('content-disposition', `attachment; filename="zones.${csv ? 'csv' : 'geojson'}"`)
        .type(csv ? 'text/csv; charset=utf-8' : 'application/geo+json; charset=utf-8')
        .send(text);
    },
  );

  app.get(
    '/:operatorId/Zones/:zoneId',
    {
      config: { operatorRoles: OPERATOR_CAN.read },
      schema: {
        tags,
        summary: 'One zone of the operator',
        params: OperatorZoneParams,
        response: { 200: OperatorZone },
      },
    },
    async (req) => zones.getOperatorZone(app.db, req.staff.operatorId, req.params.zoneId),
  );

  app.post(
    '/:operatorId/Zones',
    {
      config: { operatorRoles: OPERATOR_CAN.zones },
      schema: {
        tags,
        summary: 'Create a zone: a point, an optional curb line or polygon, its number (unique), capacity and rate',
        params: OperatorParams,
        body: ZoneInput,
        response: { 201: OperatorZone, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const made = await zones.createOperatorZone(app.db, await operatorOf(req), await actor(req), req.body);
      return reply.code(201).send(made);
    },
  );

  app.put(
    '/:operatorId/Zones/:zoneId',
    {
      config: { operatorRoles: OPERATOR_CAN.zones },
      schema: {
        tags,
        summary: 'Change a zone (running sessions keep the rate they started with)',
        params: OperatorZoneParams,
        body: ZoneInput,
        response: { 200: OperatorZone, 409: ErrorResponse },
      },
    },
    async (req) =>
      zones.updateOperatorZone(app.db, await operatorOf(req), await actor(req), req.params.zoneId, req.body),
  );

  app.post(
    '/:operatorId/Zones/:zoneId/Retire',
    {
      config: { operatorRoles: OPERATOR_CAN.zones },
      schema: {
        tags,
        summary: 'Retire a zone: it keeps its history, leaves Find Parking and refuses new sessions',
        params: OperatorZoneParams,
        response: { 200: OperatorZone, 409: ErrorResponse },
      },
    },
    async (req) =>
      zones.retireOperatorZone(app.db, req.staff.operatorId, await actor(req), req.params.zoneId, new Date()),
  );
};

export default operatorZoneRoutes;

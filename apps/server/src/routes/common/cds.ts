import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ErrorResponse } from '@parkit/contract';
import { CDS_VERSION, isUuid } from '../../opendata/index.ts';

/** What the CDS routes (public/Cds, cds-key/Cds) share: Accept, paging, parameters (docs/open-data.md). */

export const CDS_COMMON_MESSAGES = {
  uuid: 'Must be a UUID',
  timestamp: (name: string) => `${name} must be milliseconds since 1970 (a CDS Timestamp)`,
  window: 'start_time must be before end_time',
  zoneNotFound: 'Curb Zone not found',
} as const;

export const DEFAULT_PAGE_SIZE = 500;
export const MAX_PAGE_SIZE = 2000;

export const cdsUuid = z.string().refine(isUuid, CDS_COMMON_MESSAGES.uuid);

/** A CDS Timestamp parameter (general-information.md, Timestamp). */
export const cdsTimestamp = (name: string) =>
  z.coerce
    .number({ error: CDS_COMMON_MESSAGES.timestamp(name) })
    .int(CDS_COMMON_MESSAGES.timestamp(name))
    .min(0, CDS_COMMON_MESSAGES.timestamp(name))
    .max(8.64e15, CDS_COMMON_MESSAGES.timestamp(name))
    .optional();

export const PageParams = {
  'page[number]': z.coerce
    .number({ error: 'page[number] must be a number' })
    .int('page[number] must be a whole number')
    .min(1, 'page[number] starts at 1')
    .max(1_000_000, 'page[number] is too large')
    .optional()
    .describe('The page (JSON:API pagination, general-information.md#pagination), from 1'),
  'page[size]': z.coerce
    .number({ error: 'page[size] must be a number' })
    .int('page[size] must be a whole number')
    .min(1, 'page[size] is at least 1')
    .max(MAX_PAGE_SIZE, `page[size] is at most ${MAX_PAGE_SIZE}`)
    .optional()
    .describe(`Objects per page (default ${DEFAULT_PAGE_SIZE})`),
};

/** start_time before end_time when both are given (general-information.md, Range Boundaries). */
export function checkWindow(q: { start_time?: number; end_time?: number }, ctx: z.RefinementCtx) {
  if (q.start_time !== undefined && q.end_time !== undefined && q.start_time >= q.end_time)
    ctx.addIssue({ code: 'custom', path: ['start_time'], message: CDS_COMMON_MESSAGES.window });
}

export const notAcceptable = { 406: ErrorResponse };

/** Accept (general-information.md, Versioning): absent, a wildcard, JSON, or `application/vnd.cds+<suffix>` at version 1.0. */
export function acceptable(accept: string | undefined, suffix: 'json' | 'csv' = 'json'): boolean {
  if (!accept) return true;
  return accept.split(',').some((part) => {
    const [type, ...params] = part.split(';').map((s) => s.trim().toLowerCase());
    if (type === '*/*' || type === 'application/*' || type === `application/${suffix}`) return true;
    if (suffix === 'csv' && type === 'text/csv') return true;
    if (type !== `application/vnd.cds+${suffix}`) return false;
    const version = params.find((p) => p.startsWith('version='))?.slice('version='.length);
    return version === undefined || version === CDS_VERSION || version.startsWith(`${CDS_VERSION}.`);
  });
}

/** The JSON:API links of page `number` of `total` objects, the request's other parameters kept (general-information.md, Pagination). */
export function pageLinks(req: FastifyRequest, total: number, number: number, size: number) {
  const last = Math.max(1, Math.ceil(total / size));
  const url = new URL(req.url, `${req.protocol}://${req.host}`);
  const link = (n: number) => {
    url.searchParams.set('page[number]', String(n));
    url.searchParams.set('page[size]', String(size));
    return url.toString();
  };
  return {
    first: link(1),
    last: link(last),
    prev: number > 1 ? link(Math.min(number - 1, last)) : null,
    next: number < last ? link(number + 1) : null,
  };
}

import type { RouteOptions } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import app from '../src/app.ts';
import { createServer } from '../src/server-instance.ts';
import { compiledSerializer } from '../src/lib/response-serializer.ts';
import { defaultOperatorId } from '../src/zones/operator-repository.ts';
import { freshDatabase, TEST_APP_CONFIG } from './helpers.ts';
import { operations } from './openapi.ts';

// Answers are written by a serializer compiled from each route's response schema instead
// of zod. For every route and every JSON answer it declares, a value with every field of the
// OpenAPI document's schema, plus an unknown field at every level, must come out with every field
// and without the unknown ones, equal to what zod would have sent.
const database = await freshDatabase();
await defaultOperatorId(database.db);
const instance = createServer({ LOG_LEVEL: 'silent', TRUST_PROXY: false });
const routes: RouteOptions[] = [];
instance.addHook('onRoute', (r) => void routes.push(r));
await instance.register(app, {
  config: {
    ...TEST_APP_CONFIG,
    DEV_OUTBOX: true,
  },
  database,
  closeDatabase: true,
});
await instance.ready();
const ops = await operations(instance);
await instance.close();

type Schema = Record<string, unknown> & {
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
  required?: string[];
  additionalProperties?: boolean | Schema;
};

const LEAK = 'NotInTheSchema';

/** A value with every field the schema lists (optional ones too), and LEAK beside them. */
function sample(s: Schema, depth = 0, nulls = false): unknown {
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const branch = s.anyOf ?? s.oneOf;
  if (branch) {
    if (nulls && depth > 0 && branch.some((b) => b.type === 'null')) return null;
    return sample(branch.find((b) => b.type !== 'null') ?? branch[0]!, depth, nulls);
  }
  if (s.allOf) return Object.assign({}, ...s.allOf.map((b) => sample(b, depth, nulls)));
  if (nulls && depth > 0 && [s.type].flat().includes('null')) return null;
  const type = [s.type ?? 'object'].flat().find((t) => t !== 'null');
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) out[k] = sample(v, depth + 1, nulls);
      // A free-form value (no properties listed, e.g. an audit entry's before/after or GeoJSON
      // coordinates) is sent as it is: only an object with its properties listed drops the others.
      if (depth < 6 && s.properties !== undefined && !s.additionalProperties) out[LEAK] = 'leak';
      return out;
    }
    case 'array':
      return s.items ? [sample(s.items, depth + 1, nulls), sample(s.items, depth + 1, nulls)] : [];
    case 'integer':
      return typeof s.minimum === 'number' ? Math.max(7, s.minimum) : 7;
    case 'number':
      return 7.25;
    case 'boolean':
      return true;
    case 'string':
      if (s.format === 'date-time') return '2026-11-23T12:00:00.000Z';
      if (s.format === 'date') return '2026-11-23';
      if (s.format === 'email') return 'a@example.com';
      if (s.format === 'uri') return 'https://example.com/x';
      return 'x'.repeat(Math.max(1, Number(s.minLength ?? 1)));
    default:
      return 'x';
  }
}

/** Paths (a.b[0].c) of every key in the value that the schema does not list. */
function unknownKeys(value: unknown, path = '$'): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => unknownKeys(v, `${path}[${i}]`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k === LEAK ? [`${path}.${k}`] : unknownKeys(v, `${path}.${k}`)));
}

/** What the value should be on the wire: the sample without LEAK anywhere. */
function withoutLeak(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutLeak);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => k !== LEAK)
      .map(([k, v]) => [k, withoutLeak(v)]),
  );
}

const openApiPath = (url: string) => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const cases = routes.flatMap((r) => {
  const methods = [r.method].flat().filter((m) => m !== 'HEAD');
  const response = (r.schema as { response?: Record<string, unknown>; hide?: boolean } | undefined)?.response;
  if (!response || (r.schema as { hide?: boolean }).hide) return [];
  return methods.flatMap((method) =>
    Object.entries(response).map(([status, zodSchema]) => {
      const op = ops.find((o) => o.method === method && o.path === openApiPath(r.url));
      const content = (op?.op.responses?.[status] as { content?: Record<string, { schema?: Schema }> } | undefined)
        ?.content;
      return {
        name: `${method} ${r.url} ${status}`,
        zodSchema: zodSchema as z.ZodType,
        json: content?.['application/json']?.schema,
        media: Object.keys(content ?? {}),
        documented: Boolean(op),
      };
    }),
  );
});

describe('compiled response serialization', () => {
  it('covers every route of the OpenAPI document', () => {
    expect(cases.length).toBeGreaterThan(50);
    for (const o of ops)
      expect(
        cases.some((c) => c.name.startsWith(`${o.method} `) && openApiPath(c.name.split(' ')[1]!) === o.path),
        `${o.method} ${o.path}`,
      ).toBe(true);
  });

  it('documents answers that are not JSON (files, CSV, PDF, event streams) under their own media types, and no JSON of any shape', () => {
    const other = cases.filter((c) => c.media.length > 0 && !c.media.includes('application/json'));
    expect(other.map((c) => c.name).sort()).toEqual([
      // Citation photos and contest files, a permit's proof: the stored file under its own type.
      'GET /api/Citations/:citationId/Files/:fileId 200',
      // A citation's proof pack for a contest.
      'GET /api/Citations/:citationId/ProofPack.pdf 200',
      'GET /api/Operator/:operatorId/Citations/:citationId/Files/:fileId 200',
      'GET /api/Operator/:operatorId/Permits/:permitId/Proof 200',
      'GET /api/Operator/:operatorId/Report/Hours.csv 200',
      'GET /api/Operator/:operatorId/Report/Sessions.csv 200',
      'GET /api/Operator/:operatorId/Statements/:statementId/Statement.csv 200',
      'GET /api/Operator/:operatorId/Statements/:statementId/Statement.pdf 200',
      'GET /api/Operator/:operatorId/Zones/Export 200',
      'GET /api/Parking/Session/:id/Receipt.pdf 200',
      'GET /api/Parking/Sessions.csv 200',
      'GET /api/Support/Chat/Attachment/:attachmentId 200',
      'GET /api/Support/Chat/Events 200',
      'GET /api/Support/Console/Attachment/:attachmentId 200',
      'GET /api/Support/Console/Events 200',
      // The CDS Curbs API: JSON under the CDS media type (docs/open-data.md), sent as bytes.
      'GET /cds/curbs/areas 200',
      'GET /cds/curbs/policies 200',
      'GET /cds/curbs/policies/:curb_policy_id 200',
      'GET /cds/curbs/spaces 200',
      'GET /cds/curbs/zones 200',
      'GET /cds/curbs/zones/:curb_zone_id 200',
      // The CDS Events and Metrics APIs (the city's feed key): JSON under the CDS media type, and
      // the Metrics sessions and aggregates as CDS CSV (docs/open-data.md#metrics).
      'GET /cds/events/events 200',
      'GET /cds/events/status 200',
      'GET /cds/metrics/aggregates 200',
      'GET /cds/metrics/sessions 200',
    ]);
    const shapeless = cases.filter((c) => c.json && Object.keys(c.json).length === 0).map((c) => c.name);
    expect(shapeless).toEqual([]);
  });

  it.each(cases.filter((c) => c.json && Object.keys(c.json).length > 0))(
    '$name: every field of the schema, nothing else, as zod would send it',
    ({ name, zodSchema, json }) => {
      const serialize = compiledSerializer({
        schema: zodSchema,
        method: name.split(' ')[0]!,
        url: name.split(' ')[1]!,
        httpStatus: name.split(' ')[2]!,
      });
      const value = sample(json!);
      const sent = JSON.parse(serialize(value)) as unknown;
      expect(unknownKeys(sent)).toEqual([]);
      expect(sent).toEqual(withoutLeak(value));
      // What the zod serializer sent before, when zod takes the sample (refinements may refuse it).
      const zod = zodSchema.safeParse(value);
      if (zod.success) expect(sent).toEqual(JSON.parse(JSON.stringify(zod.data)));
      // The same with every nullable field null.
      const nulled = sample(json!, 0, true);
      expect(JSON.parse(serialize(nulled))).toEqual(withoutLeak(nulled));
    },
  );

  it('refuses to send an answer missing a required field (a 500, never a silent gap)', () => {
    const c = cases.find((x) => x.name === 'GET /api/Account/Details 200')!;
    const serialize = compiledSerializer({
      schema: c.zodSchema,
      method: 'GET',
      url: '/api/Account/Details',
      httpStatus: '200',
    });
    const value = sample(c.json!) as Record<string, unknown>;
    delete value.Balance;
    expect(() => serialize(value)).toThrow(/Balance/);
  });
});

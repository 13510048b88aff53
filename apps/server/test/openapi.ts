import type { FastifyInstance } from 'fastify';

/** One operation of the app's OpenAPI document (the guards read it: a new route is covered by itself). */
export interface Operation {
  method: string;
  /** The path as the document writes it: /api/Vehicle/Models/{makeId}. */
  path: string;
  memberOnly: boolean;
  op: {
    operationId?: string;
    security?: Array<Record<string, string[]>>;
    parameters?: Array<{ in: string; name: string; required?: boolean; schema?: Record<string, unknown> }>;
    requestBody?: { content?: Record<string, { schema?: Record<string, unknown> }> };
    responses?: Record<string, unknown>;
  };
}

export async function operations(app: FastifyInstance): Promise<Operation[]> {
  const doc = (await app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
    paths: Record<string, Record<string, Operation['op']>>;
  }>();
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      op,
      memberOnly: Boolean(op.security?.some((s) => 'bearer' in s)),
    })),
  );
}

/** The path with every {param} replaced. */
export const fill = (path: string, value: (name: string) => string) =>
  path.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(value(name)));

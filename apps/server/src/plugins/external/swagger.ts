import type { FastifySchema } from 'fastify';
import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';

/**
 * A stable operationId from the method and path, for client generators:
 * GET /api/Vehicle/Models/:makeId -> getVehicleModelsByMakeId, POST /token -> postToken.
 */
export function operationId(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '/')
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `By${part[1]!.toUpperCase()}${part.slice(2)}` : part))
    .flatMap((part) => part.split(/[^A-Za-z0-9]+/))
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1));
  return method.toLowerCase() + words.join('');
}

declare module 'fastify' {
  interface FastifySchema {
    /**
     * The file part of a multipart/form-data upload, for the document only: the route reads it
     * with req.file(), so Fastify validates no body.
     */
    upload?: { field: string; description: string };
  }
}

/**
 * OpenAPI 3.0's `nullable: true` adds null to the `type`, not to an `enum` (3.0.3: the other
 * keywords keep their meaning), and zod writes a nullable enum without null: a validator then
 * reads it as never null. Adds null to every nullable enum of a route's schemas.
 */
export function nullInNullableEnums(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(nullInNullableEnums);
  if (!node || typeof node !== 'object') return;
  const schema = node as Record<string, unknown>;
  if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null))
    schema.enum = [...(schema.enum as unknown[]), null];
  Object.values(schema).forEach(nullInNullableEnums);
}

/** OpenAPI generated from the routes' zod schemas, browsable at /api/docs outside production (API_DOCS). */
export default fp<{ ui: boolean }>(
  async (app, { ui }) => {
    await app.register(swagger, {
      openapi: {
        info: {
          title: 'ParkIt API',
          version: '1.0.0',
          description: 'Find and pay for parking.',
          // Private code (package.json has no licence): npm's documented meaning of UNLICENSED.
          license: { name: 'UNLICENSED', url: 'https://docs.npmjs.com/cli/v11/configuring-npm/package-json#license' },
        },
        // Relative: the document describes the server that serves it, wherever it runs.
        servers: [{ url: '/', description: 'This ParkIt server' }],
        components: {
          securitySchemes: {
            bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
            operatorKey: { type: 'apiKey', in: 'header', name: 'x-operator-key' },
            cdsKey: {
              type: 'http',
              scheme: 'bearer',
              description: "An operator's CDS feed key (docs/open-data.md#authentication): Authorization: Bearer pk_…",
            },
          },
        },
      },
      transform: (input) => {
        const out = jsonSchemaTransform(input);
        const schema = out.schema as {
          hide?: boolean;
          operationId?: string;
          body?: unknown;
          upload?: FastifySchema['upload'];
        };
        if (schema.upload) {
          const { field, description } = schema.upload;
          schema.body = {
            type: 'object',
            properties: { [field]: { type: 'string', format: 'binary', description } },
            required: [field],
          };
          delete schema.upload;
        }
        const method = Array.isArray(input.route.method) ? input.route.method[0]! : input.route.method;
        if (!schema.hide) schema.operationId ??= operationId(method, out.url);
        nullInNullableEnums(schema);
        return out;
      },
    });
    // The document is always built (tests read it); its pages only when enabled (not in production).
    if (ui) await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'swagger' },
);

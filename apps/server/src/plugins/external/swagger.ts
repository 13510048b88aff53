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
          },
        },
      },
      transform: (input) => {
        const out = jsonSchemaTransform(input);
        const schema = out.schema as { hide?: boolean; operationId?: string };
        const method = Array.isArray(input.route.method) ? input.route.method[0]! : input.route.method;
        if (!schema.hide) schema.operationId ??= operationId(method, out.url);
        return out;
      },
    });
    // The document is always built (tests read it); its pages only when enabled (not in production).
    if (ui) await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'swagger' },
);

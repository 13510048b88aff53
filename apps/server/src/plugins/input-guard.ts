import fp from 'fastify-plugin';
import { MESSAGES } from '@parkit/contract';
import { badRequest } from '../lib/http-error.ts';

/** Request bodies: 64 KB is plenty for every JSON and form request; a route may set its own. */
export const BODY_LIMIT = 64 * 1024;

/**
 * Input no route should have to think about (docs/architecture.md#api-conventions: no input yields a 500).
 * - Every route gets the 64 KB body limit, whatever the Fastify instance it is mounted on.
 * - PostgreSQL text cannot hold the NUL character, so a string with one that reaches a query
 *   fails there as a 500: any NUL in the body, query or path is refused first, naming the field.
 */
export default fp(
  async (app) => {
    app.addHook('onRoute', (route) => {
      route.bodyLimit ??= BODY_LIMIT;
    });
    app.addHook('preValidation', (req, _reply, done) => {
      for (const part of [req.params, req.query, req.body]) {
        const field = nulField(part);
        if (field !== null) return done(badRequest(field, MESSAGES.malformedBody));
      }
      done();
    });
  },
  { name: 'input-guard' },
);

/** The path ('a.b.0') of the first key or string holding a NUL, else null. Iterative: JSON may nest deep. */
export function nulField(value: unknown): string | null {
  const stack: [unknown, string][] = [[value, '']];
  while (stack.length > 0) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return path;
    } else if (v !== null && typeof v === 'object' && !ArrayBuffer.isView(v)) {
      for (const [key, child] of Object.entries(v)) {
        const at = path ? `${path}.${key}` : key;
        if (key.includes('\u0000')) return at;
        stack.push([child, at]);
      }
    }
  }
  return null;
}

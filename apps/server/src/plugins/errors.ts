import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MESSAGES, SPEC_MESSAGES, type ErrorResponse } from '@parkit/contract';
import { HttpError } from '../lib/http-error.ts';
import { isDatabaseUnavailable, RETRY_AFTER_SECONDS } from '../db/unavailable.ts';

/**
 * The one error handler (docs/architecture.md#api-conventions): every error is JSON, 4xx say what is wrong and
 * which field, 5xx are logged and answered with the spec's wording and no details.
 */
export default fp(
  async (app) => {
    app.setErrorHandler((err: FastifyError, req, reply) => {
      let status = 500;
      let body: ErrorResponse;
      if (err instanceof HttpError) {
        status = err.statusCode;
        body = { message: err.message, ...(err.errors ? { errors: err.errors } : {}), ...err.data };
        if (err.headers) void reply.headers(err.headers);
      } else if (hasZodFastifySchemaValidationErrors(err)) {
        status = 400;
        const errors = err.validation.map((v) => {
          const field = v.instancePath.replace(/^\//, '').replace(/\//g, '.');
          const unknown = (v.params as { keys?: unknown }).keys;
          // A strict query (the open-data feeds) names the parameter it does not take.
          if (err.validationContext === 'querystring' && v.keyword === 'unrecognized_keys' && Array.isArray(unknown))
            return { field: String(unknown[0]), message: MESSAGES.unknownParameter };
          return { field, message: field === '' || !v.message ? MESSAGES.malformedBody : v.message };
        });
        body = { message: errors[0]?.message ?? MESSAGES.validationFailed, errors };
      } else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
        status = 413;
        body = { message: MESSAGES.bodyTooLarge };
      } else if (typeof err.statusCode === 'number' && err.statusCode >= 400 && err.statusCode < 500) {
        // Fastify's own client errors: bad JSON, wrong content type, rate limits.
        status = err.statusCode;
        body = { message: status === 400 ? MESSAGES.malformedBody : err.message };
      } else if (isDatabaseUnavailable(err)) {
        // A failover or a restart: the client tries again, with the same key for money (db/unavailable.ts).
        status = 503;
        body = { message: MESSAGES.serviceUnavailable };
        void reply.header('retry-after', String(RETRY_AFTER_SECONDS));
        req.log.warn({ err: { message: err.message, code: err.code } }, 'database unavailable');
        return reply.code(status).type('application/json').send(body);
      } else {
        body = { message: SPEC_MESSAGES.unknownError, ErrorDetails: { message: SPEC_MESSAGES.unknownError } };
      }
      // An APDS client reads the document's ResponseStatus (status, code) beside our shape; a
      // route whose answer schema has no such fields drops them (docs/apds.md#assigned-rights).
      if (req.url.startsWith('/apds/')) body = { ...body, status: 'error', code: status } as ErrorResponse;
      if (status >= 500) req.log.error({ err }, 'request failed');
      else req.log.info({ status, code: err.code }, 'request refused');
      return reply.code(status).type('application/json').send(body);
    });
  },
  { name: 'errors' },
);

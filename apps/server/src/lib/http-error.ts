import type { ErrorResponse, FieldError } from '@parkit/contract';

/** An error the client caused or may see: status, message and, for 400, the fields at fault. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
    /** Data the answer carries beside the message (the busy vehicle's SessionId). */
    readonly data?: Pick<ErrorResponse, 'SessionId'>,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

export const badRequest = (field: string, message: string) => new HttpError(400, message, [{ field, message }]);
export const conflict = (field: string, message: string) => new HttpError(409, message, [{ field, message }]);
export const notFound = (message = 'Not found') => new HttpError(404, message);
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, undefined, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });

import { z } from 'zod';

/** One field's complaint in a 400 response (docs/architecture.md#api-conventions). */
export const FieldError = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldError>;

/** Every error the API sends has this shape; 500s add ErrorDetails and never a stack trace. */
export const ErrorResponse = z.object({
  message: z.string(),
  errors: z.array(FieldError).optional(),
  ErrorDetails: z.object({ message: z.string() }).optional(),
  /** A 409 "This vehicle is already parked": the vehicle's running session, to open it instead. */
  SessionId: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('The running session that holds the vehicle (409 "This vehicle is already parked")'),
});
export type ErrorResponse = z.infer<typeof ErrorResponse>;

export const MessageResponse = z.object({ message: z.string() });
export type MessageResponse = z.infer<typeof MessageResponse>;

/** Positive database id in a path or body; accepts "12" from forms and paths. */
export const Id = z.coerce
  .number({ error: 'Must be a number' })
  .int('Must be a whole number')
  .positive('Must be a positive number')
  .max(2_147_483_647, 'Too large');

/** Plain text without control characters, trimmed; for names, addresses and the like. */
export const text = (max: number, required: string) =>
  z
    .string({ error: required })
    .trim()
    .min(1, required)
    .max(max, `At most ${max} characters`)
    // eslint-disable-next-line no-control-regex
    .regex(/^[^\u0000-\u001f\u007f]*$/, 'Contains characters that are not allowed');

/** A required text query parameter, trimmed, whose messages name it (Search's q, the plate check's zone and plate). */
export const queryText = (name: string, max: number) =>
  z
    .string({ error: `${name} is required` })
    .trim()
    // A missing value is told only that: the checks after this one (a pattern, a refinement) would
    // each add their own error for the same empty field.
    .min(1, { error: `${name} is required`, abort: true })
    .max(max, `${name} must be at most ${max} characters`);

/** The limit query parameter of a paged or capped list: a whole number from 1 to max, 20 when absent. */
export const pageLimit = (max: number) =>
  z.coerce
    .number({ error: 'limit must be a number' })
    .int('limit must be a whole number')
    .min(1, 'limit must be at least 1')
    .max(max, `limit must be at most ${max}`)
    .default(20);

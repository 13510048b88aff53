import { z } from 'zod';

/** One field's complaint in a 400 response (DESIGN.md section 4). */
export const FieldError = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof FieldError>;

/** Every error the API sends has this shape; 500s add ErrorDetails and never a stack trace. */
export const ErrorResponse = z.object({
  message: z.string(),
  errors: z.array(FieldError).optional(),
  ErrorDetails: z.object({ message: z.string() }).optional(),
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

import { expect } from 'vitest';
import type { z } from 'zod';

/** For the contract's tests: the message each field gets, as a form shows it (path -> first message). */
export function messages(schema: z.ZodType, value: unknown): Record<string, string> {
  const r = schema.safeParse(value);
  if (r.success) return {};
  const out: Record<string, string> = {};
  for (const i of r.error.issues) out[i.path.join('.') || '(root)'] ??= i.message;
  return out;
}

/** Each value with the messages it must get ({} when it is accepted). */
export function expectMessages(schema: z.ZodType, cases: [value: unknown, expected: Record<string, string>][]) {
  for (const [value, expected] of cases) expect(messages(schema, value), JSON.stringify(value)).toEqual(expected);
}

export const UUID = '0b7a4c3e-2f61-4a8e-9d2c-5e4f3a2b1c0d';

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as contract from './index.ts';

/**
 * Characterization of every schema the contract exports (its own tests exercised none
 * of them). Two pins per schema, kept in __snapshots__/wire-shapes.test.ts.snap:
 * - its wire shape as JSON Schema (what the OpenAPI document and a client generator see: fields,
 *   required, types, patterns, bounds, enums);
 * - what each field answers to a fixed set of values: the parsed value, or the message a form or
 *   an API client shows. A change to either shows as a diff to review (`vitest -u` after
 *   checking it against the spec). The spec's own messages are asserted by name in
 *   schemas.test.ts.
 */
const PROBES: unknown[] = [
  undefined,
  null,
  '',
  '  ',
  ' Ab-1 ',
  'abc',
  'ABC123',
  'x'.repeat(300),
  '7',
  '5551234567',
  'a@b.co',
  '2024-02-30',
  '2024-01-15',
  '2024-01-15T10:30:00.000Z',
  0,
  -1,
  1,
  2.5,
  100,
  1e7,
  true,
  false,
  [],
  {},
];

const show = (v: unknown) =>
  v === undefined
    ? 'undefined'
    : typeof v === 'string' && v.length > 20
      ? `'${v.slice(0, 6)}…'(${v.length})`
      : JSON.stringify(v);

/** Each outcome once, with the values that get it: `"AB-1" ← " Ab-1 "`, `✗ message ← "", null`. */
function answers(schema: z.ZodType): string[] {
  const byOutcome = new Map<string, string[]>();
  for (const v of PROBES) {
    const r = schema.safeParse(v);
    const outcome = r.success
      ? show(r.data)
      : `✗ ${[...new Set(r.error.issues.map((i) => `${i.path.join('.')}${i.path.length ? ': ' : ''}${i.message}`))].join(' | ')}`;
    byOutcome.set(outcome, [...(byOutcome.get(outcome) ?? []), show(v)]);
  }
  return [...byOutcome].map(([outcome, values]) => `${outcome} ← ${values.join(', ')}`);
}

const schemas = Object.entries(contract as Record<string, unknown>)
  .filter((e): e is [string, z.ZodType] => e[1] instanceof z.ZodType)
  .sort(([a], [b]) => a.localeCompare(b));

describe.each(schemas)('%s', (_name, schema) => {
  it('keeps its wire shape', () => {
    expect(JSON.stringify(z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' }))).toMatchSnapshot();
  });

  it('answers each field as before', () => {
    const shape = schema instanceof z.ZodObject ? (schema.shape as Record<string, z.ZodType>) : null;
    const fields = shape
      ? Object.fromEntries(Object.entries(shape).map(([k, s]) => [k, answers(s)]))
      : { '(whole)': answers(schema) };
    expect(fields).toMatchSnapshot();
  });
});

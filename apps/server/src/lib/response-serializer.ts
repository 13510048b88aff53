import fastJson from 'fast-json-stringify';
import type { FastifySerializerCompiler } from 'fastify';
import { z } from 'zod';
import { $ZodType } from 'zod/v4/core';

/**
 * Responses are written by a serializer compiled once per route and status from the JSON Schema
 * of the route's zod response schema (fast-json-stringify, as Fastify does by default),
 * instead of running zod over every answer on its way out. It writes exactly the schema's fields:
 * an unknown field is dropped, a missing required field is an error (500).
 * test/serialization.test.ts checks every route's schemas against the zod output.
 */
type Json = Record<string, unknown>;

/** The JSON Schema fast-json-stringify compiles for a zod response schema (its output side). */
export function responseJsonSchema(schema: z.ZodType): Json {
  const json = z.toJSONSchema(schema, {
    io: 'output',
    target: 'draft-07',
    unrepresentable: 'any',
    reused: 'inline',
    cycles: 'ref',
  }) as Json;
  return simplify(json);
}

/**
 * zod writes `.nullable()` as anyOf [X, null]; fast-json-stringify would pick the branch by
 * validating the value at run time (slow, and an object with one field too many would match
 * neither), so it becomes X with a type list [X's type, 'null'].
 */
function simplify(node: unknown): Json {
  if (Array.isArray(node)) return node.map(simplify) as unknown as Json;
  if (!node || typeof node !== 'object') return node as Json;
  const out: Json = {};
  for (const [k, v] of Object.entries(node)) out[k] = typeof v === 'object' && v !== null ? simplify(v) : v;
  const anyOf = out.anyOf as Json[] | undefined;
  if (anyOf?.length === 2) {
    const nul = anyOf.findIndex((b) => b.type === 'null' && Object.keys(b).length === 1);
    const other = anyOf[1 - nul];
    if (nul >= 0 && other && typeof other.type === 'string') {
      delete out.anyOf;
      Object.assign(out, other, { type: [other.type, 'null'] });
    }
  }
  return out;
}

function zodOf(schema: unknown): z.ZodType {
  if (schema instanceof $ZodType) return schema as z.ZodType;
  const props = (schema as { properties?: unknown } | null)?.properties;
  if (props instanceof $ZodType) return props as z.ZodType;
  throw new Error(`a response schema that is not zod: ${JSON.stringify(schema)}`);
}

export const compiledSerializer: FastifySerializerCompiler<unknown> = ({ schema }) =>
  fastJson(responseJsonSchema(zodOf(schema)) as never);

import fc from 'fast-check';
import { type Operation, fill } from '../openapi.ts';

type Json = Record<string, unknown>;
export interface BadRequest {
  kind: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

/** Strings an attacker tries: SQL, markup, control characters, huge numbers, prototype keys. */
export const hostileString = fc.oneof(
  fc.constantFrom(
    "' OR '1'='1",
    '"; DROP TABLE members; --',
    '<script>alert(1)</script>',
    '../../etc/passwd',
    '%00',
    '\u0000',
    '\u202e\u0000x',
    '9'.repeat(400),
    '-1',
    '1e309',
    'NaN',
    '__proto__',
    '{{7*7}}',
    '${jndi:ldap://x}',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);
const anyJson = fc.oneof(
  hostileString,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);

/** The JSON types a schema allows ('string', 'number', 'integer', 'boolean', 'object', 'array', 'null'). */
function allowedTypes(s: Json | undefined): Set<string> {
  if (!s) return new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
  const alts = (s.anyOf ?? s.oneOf) as Json[] | undefined;
  if (alts) return new Set(alts.flatMap((a) => [...allowedTypes(a)]));
  const types = new Set<string>([s.type as string].flat().filter(Boolean));
  if (s.nullable) types.add('null');
  if (types.has('integer')) types.add('number');
  return types;
}
const typeOf = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'number' ? 'number' : typeof v;
/** A value of a JSON type the schema refuses. */
const wrongTyped = (s: Json | undefined) => {
  const allowed = allowedTypes(s);
  return fc
    .oneof(
      fc.integer(),
      fc.boolean(),
      fc.constant(null),
      fc.array(hostileString, { maxLength: 2 }),
      fc.dictionary(fc.string({ maxLength: 4 }), hostileString, { maxKeys: 2 }),
      hostileString,
    )
    .filter((v) => !allowed.has(typeOf(v)) && !(typeOf(v) === 'number' && allowed.has('integer')));
};

/**
 * Requests an operation must refuse with a 4xx, built from its own schemas: the body not an
 * object, a field of the wrong type, a required field missing (the rest hostile), unknown fields
 * beside a wrong one, malformed JSON, a content type no route takes, an oversized body, a missing
 * or wrong-typed query parameter, a hostile path parameter. Null when the operation takes no input.
 */
export function badRequests(op: Operation, headers: Record<string, string>): fc.Arbitrary<BadRequest> | null {
  const json = op.op.requestBody?.content?.['application/json']?.schema as Json | undefined;
  const params = op.op.parameters ?? [];
  const path = params.filter((p) => p.in === 'path');
  const query = params.filter((p) => p.in === 'query');
  const url = fill(op.path, () => '1');
  const arbs: fc.Arbitrary<BadRequest>[] = [];
  const req = (kind: string, payload: string | undefined, type = 'application/json', u = url): BadRequest => ({
    kind,
    method: op.method,
    url: u,
    headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': type }) },
    ...(payload === undefined ? {} : { payload }),
  });

  if (json) {
    const props = (json.properties ?? {}) as Record<string, Json>;
    const required = (json.required ?? []) as string[];
    const names = Object.keys(props);
    const nullable = allowedTypes(json).has('null');
    arbs.push(
      fc
        .oneof(
          hostileString,
          fc.integer(),
          fc.boolean(),
          fc.array(anyJson, { maxLength: 3 }),
          ...(nullable ? [] : [fc.constant(null)]),
        )
        .map((v) => req('not an object', JSON.stringify(v))),
      fc.constantFrom('{"a":', '{', '[1,', '{"x": tru}', '\u0000').map((p) => req('malformed JSON', p)),
      fc
        .constantFrom('application/xml', 'application/octet-stream', 'image/png')
        .map((t) => req('wrong content type', '<a>1</a>', t)),
      fc.constant(req('oversized', JSON.stringify({ [names[0] ?? 'x']: 'x'.repeat(70 * 1024) }))),
    );
    if (names.length > 0) {
      const hostileObject = fc.record(Object.fromEntries(names.map((n) => [n, anyJson])), { requiredKeys: [] });
      arbs.push(
        fc
          .tuple(
            fc.constantFrom(...names),
            hostileObject,
            fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), anyJson, { maxKeys: 3 }),
          )
          .chain(([name, rest, unknown]) =>
            wrongTyped(props[name]).map((v) =>
              req(`wrong type for ${name}`, JSON.stringify({ ...unknown, ...rest, [name]: v })),
            ),
          ),
      );
    }
    if (required.length > 0) {
      arbs.push(
        fc
          .tuple(
            fc.constantFrom(...required),
            fc.record(Object.fromEntries(names.map((n) => [n, hostileString])), { requiredKeys: [] }),
          )
          .map(([name, rest]) => {
            const body: Json = { ...rest };
            delete body[name];
            return req(`missing ${name}`, JSON.stringify(body));
          }),
      );
    }
    if (json.oneOf || json.anyOf) {
      arbs.push(
        hostileString
          .filter((s) => !['password', 'otp', 'refresh_token'].includes(s))
          .map((g) => req('no variant matches', JSON.stringify({ grant_type: g }))),
      );
    }
  }
  for (const p of query) {
    const others = query
      .filter((q) => q !== p && q.required)
      .map((q) => `${q.name}=${q.schema?.type === 'string' ? 'abc' : '1'}`);
    if (p.required)
      arbs.push(fc.constant(req(`missing ${p.name}`, undefined, undefined, `${url}?${others.join('&')}`)));
    if (p.schema?.type === 'number' || p.schema?.type === 'integer') {
      arbs.push(
        hostileString
          .filter((s) => !/^\s*-?\d+(\.\d+)?\s*$/.test(s) && s.trim() !== '')
          .map((v) =>
            req(
              `wrong type for ${p.name}`,
              undefined,
              undefined,
              `${url}?${[...others, `${p.name}=${encodeURIComponent(v)}`].join('&')}`,
            ),
          ),
      );
    }
  }
  for (const p of path) {
    arbs.push(
      hostileString
        .filter((s) => !/^\d+$/.test(s) && s !== '' && s !== '.' && s !== '..')
        .map((v) =>
          req(
            `hostile ${p.name}`,
            undefined,
            undefined,
            fill(op.path, () => v),
          ),
        ),
    );
  }
  return arbs.length > 0 ? fc.oneof(...arbs) : null;
}

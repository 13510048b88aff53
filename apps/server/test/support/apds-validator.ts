import { readFileSync } from 'node:fs';
import $RefParser from '@apidevtools/json-schema-ref-parser';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { OpenAPIBackend, type Document } from 'openapi-backend';

/**
 * The APDS OpenAPI document (docs/standards/apds/APDS_API_bundled.json, MIT, the Alliance for
 * Parking Data Standards) loaded in openapi-backend, whose Ajv checks each answer of /apds/
 * against the schema the document gives that operation and status, with ajv-formats' formats
 * (date-time, email, uri...). Its Ajv reads the schemas as OpenAPI 3.0 defines them (draft 04:
 * `exclusiveMinimum: true` beside `minimum`), as e2e/contract/validator.ts does for our own document;
 * the document's own schemas are not checked against a meta-schema (the draft repeats an enum value). The document's references point through other references
 * (`#/paths/~1places/get/.../items/oneOf/0` where `items` is itself a `$ref`), which only a full
 * JSON-pointer resolver follows: json-schema-ref-parser dereferences it first.
 */
export const APDS_DOCUMENT = new URL('../../../../docs/standards/apds/APDS_API_bundled.json', import.meta.url);

/**
 * The document's draft has `oneOf`s whose branches overlap, so a conforming object matches more
 * than one branch and Ajv reports "must match exactly one schema in oneOf" with the branches it
 * matched (`passingSchemas`): a Place's `HierarchyElementData` (Campus is the general element
 * alone, so every Place is also a Campus) and `AreaLocation` (its first branch requires nothing,
 * so a GeoJSON MultiPolygon matches it too). Such an ambiguity is the document's, not the data's:
 * it is reported apart, where the test checks it is one of these. `HolderCredential`'s branches
 * (VehicleCredential, CustomerCredential, OtherCredential) are one schema, so no credential can
 * match exactly one: an erratum (applyErrata) reads that oneOf as anyOf, since reported apart it
 * would still fail the oneOf of a Session segment's AssignedRight that holds it.
 */
export interface ApdsCheck {
  errors: string[];
  ambiguities: string[];
}

interface AjvError {
  keyword: string;
  schemaPath: string;
  instancePath: string;
  message?: string;
  params?: { passingSchemas?: number[] | null } & Record<string, unknown>;
}

const ambiguous = (e: AjvError) =>
  e.keyword === 'oneOf' && Array.isArray(e.params?.passingSchemas) && e.params.passingSchemas.length > 1;

/**
 * The errors, and the ambiguities apart. A oneOf that fails because several branches pass leaves
 * the other branches' errors in Ajv's list (allErrors): those are dropped with it, since a branch
 * the object does match was found.
 */
function split(errors: AjvError[] | null | undefined): ApdsCheck {
  const all = errors ?? [];
  const ambiguities = all.filter(ambiguous);
  const underAmbiguity = (e: AjvError) =>
    ambiguities.some(
      (a) =>
        e !== a &&
        e.schemaPath.startsWith(`${a.schemaPath}/`) &&
        (e.instancePath === a.instancePath || e.instancePath.startsWith(`${a.instancePath}/`)),
    );
  return {
    errors: all
      .filter((e) => !ambiguous(e) && !underAmbiguity(e))
      .map((e) => `${e.instancePath} ${e.message ?? 'is invalid'} ${JSON.stringify(e.params ?? {})}`),
    ambiguities: ambiguities.map((a) => `${a.instancePath} [${a.params!.passingSchemas!.join(',')}]`),
  };
}

/**
 * The errata applied to the document before it is used, because no object can satisfy the
 * schemas as published: `Reference` (a credential's `identifier`, a segment's `spaceId`, ...)
 * requires both `className` and `id` yet says `maxProperties: 1`, which is lifted to 2, the two
 * properties it requires; and a `oneOf` whose branches all name the same schema
 * (`HolderCredential`) is read as `anyOf`. Every other keyword stays the document's. Returns how
 * many schemas it changed (the test checks there are some: once the document is fixed, this goes).
 */
export function applyErrata(node: unknown): number {
  if (Array.isArray(node)) return node.reduce((n: number, x) => n + applyErrata(x), 0);
  if (!node || typeof node !== 'object') return 0;
  const schema = node as Record<string, unknown>;
  let changed = 0;
  if (
    schema.title === 'Reference' &&
    schema.maxProperties === 1 &&
    Array.isArray(schema.required) &&
    schema.required.includes('className') &&
    schema.required.includes('id')
  ) {
    schema.maxProperties = 2;
    changed++;
  }
  const sameSchema = (branch: unknown) => {
    const of = (branch as { allOf?: Array<{ $ref?: string }> } | null)?.allOf;
    return of?.length === 1 ? of[0]!.$ref : undefined;
  };
  if (Array.isArray(schema.oneOf) && schema.oneOf.length > 1) {
    const refs = schema.oneOf.map(sameSchema);
    if (refs[0] !== undefined && refs.every((r) => r === refs[0])) {
      schema.anyOf = schema.oneOf;
      delete schema.oneOf;
      changed++;
    }
  }
  return changed + Object.values(schema).reduce((n: number, x) => n + applyErrata(x), 0);
}

export async function loadApds() {
  const document = JSON.parse(readFileSync(APDS_DOCUMENT, 'utf8')) as Document;
  const errata = applyErrata(document);
  const definition = (await $RefParser.dereference(document)) as Document;
  const api = new OpenAPIBackend({
    definition,
    // The document's own structure is not ours to check (it is a published draft); dereferenced already.
    quick: true,
    validate: true,
    customizeAjv: (_draft07, options) => {
      const ajv = new Ajv04({ ...options, strict: false, allErrors: true, validateSchema: false });
      addFormats(ajv, { mode: 'full', keywords: false });
      // The formats OpenAPI adds, which the document uses as descriptions of the data.
      for (const name of ['int32', 'int64', 'float', 'double', 'binary', 'byte', 'password', 'url'])
        ajv.addFormat(name, true);
      return ajv as never;
    },
  });
  await api.init();
  // The payload a webhook subscriber receives: the document gives it as post-webhooks' callback.
  const ajv = new Ajv04({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv, { mode: 'full', keywords: false });
  for (const name of ['int32', 'int64', 'float', 'double', 'binary', 'byte', 'password', 'url'])
    ajv.addFormat(name, true);
  const callbacks = (definition.paths?.['/webhooks']?.post as { callbacks?: Record<string, Record<string, unknown>> })
    ?.callbacks;
  // Its `data` items are a oneOf of five object schemas (Place, RightSpecification, AssignedRight,
  // Session, RateTable) whose own oneOfs overlap (see above), so no item can pass it: the envelope
  // is checked here with any object as an item, and the test checks each item against its own
  // operation's schema (a Session: get-sessions-id), where the ambiguities are reported apart.
  const callbackSchema = (name: string) => {
    const schema = (
      callbacks?.[name]?.['{$request.body#/endpoint}'] as {
        post: { requestBody: { content: { 'application/json': { schema: { properties: { data: object } } } } } };
      }
    ).post.requestBody.content['application/json'].schema;
    return {
      ...schema,
      properties: { ...schema.properties, data: { ...schema.properties.data, items: { type: 'object' } } },
    };
  };
  return {
    /** A webhook delivery's body against the callback `name` of post-webhooks (placeEvent). */
    callback: (name: string, body: unknown): ApdsCheck => {
      const validate = ajv.compile(callbackSchema(name));
      validate(body);
      return split(validate.errors as AjvError[] | null);
    },
    /** How many schemas the erratum changed (applyErrata). */
    errata,
    /** The operations the document has, by operationId. */
    operationIds: () => api.router.getOperations().map((o) => o.operationId ?? ''),
    /** Whether the document declares this status for the operation. */
    declares: (operationId: string, status: number) =>
      Boolean(api.router.getOperation(operationId)?.responses?.[String(status)]),
    response: (operationId: string, status: number, body: unknown): ApdsCheck =>
      split(api.validator.validateResponse(body, operationId, status).errors as AjvError[] | null),
    request: (operationId: string, body: unknown): ApdsCheck => {
      const op = api.router.getOperation(operationId)!;
      return split(
        api.validator.validateRequest(
          { method: op.method, path: op.path, headers: { 'content-type': 'application/json' }, body },
          operationId,
        ).errors as AjvError[] | null,
      );
    },
  };
}

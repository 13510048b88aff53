import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import * as zlib from 'node:zlib';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { OpenAPIBackend, type Document, type Operation } from 'openapi-backend';

/**
 * Checks one request and its answer against the OpenAPI document the server serves at
 * /api/docs/json, the way an independent validating proxy (Stoplight Prism's) does: the operation
 * exists, its parameters and body are what the document takes, the answer's status is declared,
 * its media type is one the status declares, and a JSON body matches the declared schema.
 * Routing and the schema checks are openapi-backend's, its Ajv made to read schemas as OpenAPI 3.0
 * defines them (draft 04: `exclusiveMinimum: true` beside `minimum`; `nullable`), as Prism does,
 * with the formats of ajv-formats; the status and media-type checks, which it leaves out, are here.
 */

export type Headers = Record<string, string | string[] | undefined>;

/** One request and its answer as they crossed the proxy. */
export interface Exchange {
  method: string;
  /** Path and query, as sent. */
  url: string;
  requestHeaders: Headers;
  requestBody: Buffer;
  status: number;
  responseHeaders: Headers;
  /** As sent (maybe compressed); null for a stream that is not read to its end (event streams). */
  responseBody: Buffer | null;
}

export interface Finding {
  /** `GET /api/Parking/Sessions.csv (getParkingSessionsCsv)`, or the method and path if no operation matches. */
  operation: string;
  status: number;
  /** What disagrees with the document: the run fails on any. */
  violations: string[];
  /** Why the request itself is outside the document (then a 4xx refusal is the expected answer). */
  refusedRequest: string[];
}

const header = (h: Headers, name: string) => [h[name]].flat()[0];
/** `application/json; charset=utf-8` -> `application/json`. */
export const mediaTypeOf = (value: string | undefined) => value?.split(';')[0]!.trim().toLowerCase() || undefined;

function mediaMatches(actual: string, declared: string) {
  const d = declared.toLowerCase();
  if (d === '*/*' || d === actual) return true;
  return d.endsWith('/*') && actual.startsWith(d.slice(0, -1));
}

const isJson = (media: string) => media === 'application/json' || media.endsWith('+json');

/** The bytes as the server meant them: undoes the Content-Encoding it chose. */
export function decoded(body: Buffer, encoding: string | undefined): Buffer {
  switch (encoding?.trim().toLowerCase()) {
    case undefined:
    case '':
    case 'identity':
      return body;
    case 'gzip':
    case 'x-gzip':
      return gunzipSync(body);
    case 'br':
      return brotliDecompressSync(body);
    case 'deflate':
      return inflateSync(body);
    case 'zstd': {
      const zstd = (zlib as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync;
      if (zstd) return zstd(body);
      throw new Error('zstd is not supported by this Node.js');
    }
    default:
      throw new Error(`unknown content-encoding ${encoding}`);
  }
}

/** The value at a JSON pointer (Ajv's instancePath), shortened for a message. */
function valueAt(root: unknown, pointer: string): string {
  let node = root;
  for (const part of pointer.split('/').slice(1)) {
    const key = part.replace(/~1/g, '/').replace(/~0/g, '~');
    node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
  }
  const text = JSON.stringify(node) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/** A multipart body's parts by name (their content as a placeholder): enough to check the names. */
function multipartParts(body: Buffer): Record<string, string> {
  const head = body.toString('latin1');
  return Object.fromEntries(
    [...head.matchAll(/content-disposition:\s*form-data;\s*name="([^"]*)"/gi)].map((m) => [m[1]!, '(part)']),
  );
}

interface AjvError {
  keyword: string;
  instancePath: string;
  message?: string;
  params?: Record<string, unknown>;
}

function describe(errors: AjvError[] | null | undefined, where: string, data?: unknown): string[] {
  return (errors ?? []).map((e) => {
    const extra = e.params?.additionalProperty ?? e.params?.allowedValues;
    const at = `${where}${e.instancePath}`;
    const actual =
      data === undefined || e.keyword === 'required' || e.keyword === 'additionalProperties'
        ? ''
        : ` (is ${valueAt(data, e.instancePath)})`;
    return `${at} ${e.message ?? 'is invalid'}${extra === undefined ? '' : `: ${JSON.stringify(extra)}`}${actual}`;
  });
}

export class ContractValidator {
  private constructor(private readonly api: OpenAPIBackend) {}

  static async load(document: Document): Promise<ContractValidator> {
    if (!String(document.openapi).startsWith('3.0.'))
      throw new Error(`the contract validator reads OpenAPI 3.0 documents, not ${document.openapi}`);
    const api = new OpenAPIBackend({
      definition: document,
      // quick: the document's own structure is redocly's check (npm run lint:openapi);
      // openapi-backend's reads OpenAPI 3.0 schemas as draft 07 and would refuse it.
      quick: true,
      strict: true,
      validate: true,
      // As the server routes: /api/X/ is not /api/X.
      ignoreTrailingSlashes: false,
      customizeAjv: (_draft07, options) => {
        // validateSchema off: openapi-backend wraps the parameters in schemas of its own
        // (`required: []`) that draft 04's meta-schema forbids; the document's schemas are
        // redocly's to check.
        const ajv = new Ajv04({ ...options, strict: false, allErrors: true, validateSchema: false });
        addFormats(ajv, { mode: 'full', keywords: false });
        // The formats OpenAPI adds, which the document uses as descriptions of the data.
        for (const name of ['int32', 'int64', 'float', 'double', 'binary', 'byte', 'password'])
          ajv.addFormat(name, true);
        return ajv as never;
      },
    });
    await api.init();
    // Every schema compiled now: one Ajv cannot read fails the run before any test.
    api.validator.preCompileRequestValidators();
    api.validator.preCompileResponseValidators();
    return new ContractValidator(api);
  }

  /** The operations of the document, as `METHOD path`. */
  operations(): string[] {
    return this.api.router.getOperations().map((o) => `${o.method.toUpperCase()} ${o.path}`);
  }

  check(x: Exchange): Finding {
    const [path = '/', query = ''] = x.url.split(/\?(.*)/s);
    const method = x.method.toUpperCase();
    const request = {
      method: method === 'HEAD' ? 'GET' : method,
      path,
      query,
      headers: x.requestHeaders as Record<string, string | string[]>,
    };
    const operation = this.api.router.matchOperation(request) as Operation | undefined;
    if (!operation) {
      // A path the document does not have answered "not found" agrees with the document.
      const agrees = x.status === 404 || x.status === 405;
      return {
        operation: `${method} ${path}`,
        status: x.status,
        violations: agrees
          ? []
          : [`no operation of the document matches ${method} ${path}, yet the server answered ${x.status}`],
        refusedRequest: agrees ? ['no such operation'] : [],
      };
    }
    const finding: Finding = {
      operation: `${method} ${operation.path} (${operation.operationId})`,
      status: x.status,
      violations: [],
      refusedRequest: [],
    };
    finding.refusedRequest = this.checkRequest(x, operation, { ...request });
    if (finding.refusedRequest.length > 0 && x.status >= 200 && x.status < 300) {
      finding.violations.push(
        `the server accepted (${x.status}) a request the document refuses: ${finding.refusedRequest.join('; ')}`,
      );
    }
    finding.violations.push(...this.checkResponse(x, operation, method));
    return finding;
  }

  private checkRequest(
    x: Exchange,
    operation: Operation,
    request: {
      method: string;
      path: string;
      query: string;
      headers: Record<string, string | string[]>;
      body?: unknown;
    },
  ): string[] {
    const issues: string[] = [];
    const declared = Object.keys(
      (operation.requestBody as { content?: Record<string, unknown> } | undefined)?.content ?? {},
    );
    const required = Boolean((operation.requestBody as { required?: boolean } | undefined)?.required);
    const media = mediaTypeOf(header(x.requestHeaders, 'content-type'));
    const text = x.requestBody.toString('utf8');
    if (declared.length === 0) {
      // The web's client sends `{}` with every POST (Fastify refuses a JSON request without a
      // body): an empty object says nothing. Anything more would be data the server drops.
      if (x.requestBody.length > 0 && !(media === 'application/json' && /^\s*\{\s*\}\s*$/.test(text))) {
        issues.push(`a ${media ?? 'body'} body where the operation takes none`);
      }
    } else if (x.requestBody.length > 0) {
      if (!media || !declared.some((d) => mediaMatches(media, d)))
        issues.push(`body of type ${media ?? '(none)'} where the operation takes ${declared.join(', ')}`);
      if (media && isJson(media))
        request.body = text; // openapi-backend parses it, and says so if it is not JSON
      else if (media === 'application/x-www-form-urlencoded')
        request.body = Object.fromEntries(new URLSearchParams(text));
      else if (media === 'multipart/form-data') request.body = multipartParts(x.requestBody);
    } else if (required) {
      issues.push(`no body where the operation requires one (${declared.join(', ')})`);
    }
    const result = this.api.validator.validateRequest(request, operation);
    issues.push(...describe(result.errors as AjvError[] | null, 'request'));
    return issues;
  }

  private checkResponse(x: Exchange, operation: Operation, method: string): string[] {
    const responses = (operation.responses ?? {}) as Record<string, { content?: Record<string, unknown> }>;
    const key = [String(x.status), `${Math.floor(x.status / 100)}XX`, 'default'].find((k) => k in responses);
    if (!key)
      return [`status ${x.status} is not declared (the operation declares ${Object.keys(responses).join(', ')})`];
    const declared = Object.keys(responses[key]!.content ?? {});
    const media = mediaTypeOf(header(x.responseHeaders, 'content-type'));
    if (method === 'HEAD' || x.status === 204 || x.status === 304) return [];
    const body =
      x.responseBody === null ? null : decoded(x.responseBody, header(x.responseHeaders, 'content-encoding'));
    if (declared.length === 0)
      return body && body.length > 0 ? [`a ${media ?? 'body'} body where status ${key} declares none`] : [];
    if (!media) return [`no content-type where status ${key} declares ${declared.join(', ')}`];
    if (!declared.some((d) => mediaMatches(media, d)))
      return [`content-type ${media} where status ${key} declares ${declared.join(', ')}`];
    if (!isJson(media) || body === null) return [];
    let data: unknown;
    try {
      data = JSON.parse(body.toString('utf8'));
    } catch (err) {
      return [`the ${media} body is not JSON: ${(err as Error).message}`];
    }
    if (media !== 'application/json') return [];
    const result = this.api.validator.validateResponse(data, operation, x.status);
    return describe(result.errors as AjvError[] | null, 'response body', data);
  }
}

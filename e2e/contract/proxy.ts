import { createServer, request as forward, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Document } from 'openapi-backend';
import { ContractValidator, mediaTypeOf, type Exchange, type Finding } from './validator.ts';
import { CONTROL_PATH, TEST_HEADER, type Report } from './protocol.ts';

/**
 * The e2e run's validating proxy: the browser and the API fixtures talk to it, it talks to the
 * server. Every /api request and /token, with its answer, is checked against the OpenAPI document
 * the server serves (validator.ts), and what disagrees is kept per test (the test's id comes in
 * the TEST_HEADER, removed before the server sees the request). The fixtures ask for their
 * test's findings when it ends and fail it on any (fixtures.ts); the global teardown fails the
 * run for findings no test collected.
 *
 * CONTRACT_PORT: where it listens; CONTRACT_UPSTREAM: the server's base URL.
 */
const port = Number(process.env.CONTRACT_PORT);
const upstream = new URL(process.env.CONTRACT_UPSTREAM ?? '');
if (!port || !upstream.port) throw new Error('contract proxy: set CONTRACT_PORT and CONTRACT_UPSTREAM');

/** Hop-by-hop headers: each connection's own, never forwarded. */
const HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'te', 'trailer', 'upgrade']);
const checked = (path: string) => path === '/token' || (path.startsWith('/api/') && !path.startsWith('/api/docs'));

async function loadDocument(): Promise<Document> {
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const res = await fetch(new URL('/api/docs/json', upstream));
      if (res.ok) return (await res.json()) as Document;
    } catch {
      // the server is still starting
    }
    if (Date.now() > deadline) throw new Error(`contract proxy: no OpenAPI document at ${upstream.href}api/docs/json`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const validator = await ContractValidator.load(await loadDocument());

/** Findings with violations, by test id ('' for requests no test sent). */
const findings = new Map<string, Finding[]>();
/** Exchanges still on their way, by test id: a test's findings wait for them. */
const inFlight = new Map<string, number>();
const totals = { exchanges: 0, refusedRequests: 0, operations: new Set<string>() };

function record(test: string, x: Exchange) {
  let finding: Finding;
  try {
    finding = validator.check(x);
  } catch (err) {
    finding = {
      operation: `${x.method} ${x.url}`,
      status: x.status,
      violations: [`could not be checked: ${(err as Error).message}`],
      refusedRequest: [],
    };
  }
  totals.exchanges += 1;
  totals.operations.add(finding.operation);
  if (finding.refusedRequest.length > 0) totals.refusedRequests += 1;
  if (finding.violations.length === 0) return;
  process.stderr.write(
    `contract violation${test ? ` [${test}]` : ''}: ${finding.operation} -> ${finding.status}\n${finding.violations.map((v) => `  - ${v}\n`).join('')}`,
  );
  findings.set(test, [...(findings.get(test) ?? []), finding]);
}

const settle = (test: string, delta: number) => inFlight.set(test, (inFlight.get(test) ?? 0) + delta);

async function control(req: IncomingMessage, res: ServerResponse, url: URL) {
  if (url.pathname === `${CONTROL_PATH}/findings`) {
    // A test's own findings, once its requests have all been answered (at most 10 s), then forgotten.
    const test = url.searchParams.get('test') ?? '';
    const until = Date.now() + 10_000;
    while ((inFlight.get(test) ?? 0) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
    const mine = findings.get(test) ?? [];
    findings.delete(test);
    inFlight.delete(test);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(mine));
    return;
  }
  if (url.pathname === `${CONTROL_PATH}/report`) {
    const report: Report = {
      exchanges: totals.exchanges,
      refusedRequests: totals.refusedRequests,
      operations: [...totals.operations].filter((o) => o.includes('(')).length,
      documented: validator.operations().length,
      unreached: validator
        .operations()
        .filter((o) => ![...totals.operations].some((reached) => reached.startsWith(`${o} (`))),
      uncollected: [...findings.entries()].flatMap(([test, list]) => list.map((f) => ({ test, ...f }))),
    };
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(report));
    return;
  }
  res.writeHead(404).end();
  void req;
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://proxy');
  if (url.pathname.startsWith(CONTROL_PATH)) {
    void control(req, res, url);
    return;
  }
  const test = [req.headers[TEST_HEADER]].flat()[0] ?? '';
  const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP.has(k) && k !== TEST_HEADER));
  const validate = checked(url.pathname);
  const requestChunks: Buffer[] = [];
  if (validate) settle(test, 1);
  let settled = !validate;
  const done = () => {
    if (!settled) settle(test, -1);
    settled = true;
  };

  const out = forward(
    { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers, agent: false },
    (answer) => {
      const status = answer.statusCode ?? 502;
      const raw: string[] = [];
      for (let i = 0; i < answer.rawHeaders.length; i += 2) {
        if (!HOP.has(answer.rawHeaders[i]!.toLowerCase())) raw.push(answer.rawHeaders[i]!, answer.rawHeaders[i + 1]!);
      }
      res.writeHead(status, answer.statusMessage, raw);
      const exchange = (responseBody: Buffer | null): Exchange => ({
        method: req.method ?? 'GET',
        url: req.url ?? '/',
        requestHeaders: headers,
        requestBody: Buffer.concat(requestChunks),
        status,
        responseHeaders: answer.headers,
        responseBody,
      });
      if (validate && mediaTypeOf(answer.headers['content-type']) === 'text/event-stream') {
        // A live stream: its status and media type are checked now, its events pass as they come.
        record(test, exchange(null));
        done();
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => {
        if (validate) chunks.push(chunk);
        res.write(chunk);
      });
      answer.on('end', () => {
        // Checked before the client has the whole answer: a test that has read it finds the verdict.
        if (validate) record(test, exchange(Buffer.concat(chunks)));
        done();
        res.end();
      });
      answer.on('error', () => {
        done();
        res.destroy();
      });
    },
  );
  out.on('error', (err) => {
    done();
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' }).end(`contract proxy: ${err.message}`);
    else res.destroy();
  });
  req.on('data', (chunk: Buffer) => {
    if (validate) requestChunks.push(chunk);
    out.write(chunk);
  });
  req.on('end', () => out.end());
  // The browser went away (a page closed, a stream ended): so does the request to the server.
  res.on('close', () => {
    if (!res.writableFinished) out.destroy();
    done();
  });
});

server.listen(port, '127.0.0.1', () => {
  process.stderr.write(
    `contract proxy: ${validator.operations().length} operations, 127.0.0.1:${port} -> ${upstream.host}\n`,
  );
});

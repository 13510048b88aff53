import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { Config } from '../src/config.ts';
import app from '../src/app.ts';
import { createServer } from '../src/server-instance.ts';
import { freshDatabase, TEST_APP_CONFIG } from './helpers.ts';

// Above info the instance is made without Fastify's logger (server-instance.ts). The lines
// written at each level stay what Fastify's logger wrote: request lines at info, error lines with
// the request's id at every level but silent, and nothing secret.
const CONFIG = {
  ...TEST_APP_CONFIG,
} as const;
const database = await freshDatabase();
afterAll(() => database.close());

interface Line {
  level: number;
  msg: string;
  reqId?: string;
  req?: { method: string; url: string; headers?: unknown };
  res?: { statusCode: number };
  responseTime?: number;
  err?: { message: string };
}

async function serverAt(level: Config['LOG_LEVEL']): Promise<{ server: FastifyInstance; lines: Line[] }> {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line) as Line);
      done();
    },
  });
  const server = createServer({ LOG_LEVEL: level, TRUST_PROXY: false }, stream);
  await server.register(async (scope) => {
    await app(scope, { config: CONFIG, database });
    scope.get('/api/Test/Throw', async () => {
      throw new Error('connection to 10.0.0.5 refused');
    });
    // How many 'finish' listeners a response carries once it reaches its handler.
    scope.get('/api/Test/Listeners', async (_req, reply) => ({ finish: reply.raw.listenerCount('finish') }));
  });
  await server.ready();
  afterAll(() => server.close());
  return { server, lines };
}

const info = await serverAt('info');
const warn = await serverAt('warn');
const silent = await serverAt('silent');
const secretHeaders = { authorization: 'Bearer secret-token-value', cookie: 'parkit_rt=secret-cookie' };

describe.each([
  ['info', info],
  ['warn', warn],
])('at %s', (_level, { server, lines }) => {
  it('logs a 500 at error level with the request’s id, its method and URL, the error, and no header', async () => {
    lines.length = 0;
    const res = await server.inject({ method: 'GET', url: '/api/Test/Throw', headers: secretHeaders });
    expect(res.statusCode).toBe(500);
    const failed = lines.find((l) => l.msg === 'request failed');
    expect(failed).toMatchObject({
      level: 50,
      reqId: res.headers['x-request-id'],
      err: { message: 'connection to 10.0.0.5 refused' },
    });
    const text = JSON.stringify(lines);
    expect(text).not.toContain('secret-token-value');
    expect(text).not.toContain('secret-cookie');
  });

  it('writes the instance’s own lines (server.log) to the same logger', () => {
    lines.length = 0;
    server.log.warn({ part: 'pool' }, 'database connection lost');
    expect(lines).toEqual([expect.objectContaining({ level: 40, msg: 'database connection lost', part: 'pool' })]);
  });
});

describe('request lines', () => {
  it('at info: one as the request comes in and one as it completes, with its id, status and time', async () => {
    info.lines.length = 0;
    const res = await info.server.inject({ method: 'GET', url: '/api/health', headers: secretHeaders });
    const id = res.headers['x-request-id'];
    const incoming = info.lines.find((l) => l.msg === 'incoming request');
    const completed = info.lines.find((l) => l.msg === 'request completed');
    expect(incoming).toMatchObject({ level: 30, reqId: id, req: { method: 'GET', url: '/api/health' } });
    expect(incoming!.req!.headers).toBeUndefined();
    expect(completed).toMatchObject({ level: 30, reqId: id, res: { statusCode: 200 } });
    expect(typeof completed!.responseTime).toBe('number');
  });

  it('above info: none, and no response is hooked to time one (the speed this buys)', async () => {
    warn.lines.length = 0;
    expect((await warn.server.inject({ method: 'GET', url: '/api/health' })).statusCode).toBe(200);
    expect(warn.lines).toEqual([]);
    const hooked = (await info.server.inject({ method: 'GET', url: '/api/Test/Listeners' })).json<{ finish: number }>()
      .finish;
    const bare = (await warn.server.inject({ method: 'GET', url: '/api/Test/Listeners' })).json<{ finish: number }>()
      .finish;
    expect(hooked).toBe(bare + 1);
  });

  it('silent: not even a 500 is written', async () => {
    expect((await silent.server.inject({ method: 'GET', url: '/api/Test/Throw' })).statusCode).toBe(500);
    silent.server.log.error('nothing');
    expect(silent.lines).toEqual([]);
  });
});

import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../src/db/client.ts';
import { createAgent } from '../src/support/create-agent.ts';
import { tokenPost, type SignedIn } from './helpers.ts';
import { EventSourceParserStream } from 'eventsource-parser/stream';

/** A support agent made as `npm run support:agent` makes one, signed in through /token. */
export async function signedInAgent(
  app: FastifyInstance,
  database: Database,
  userName = `agent_${randomUUID().slice(0, 8)}`,
): Promise<SignedIn> {
  await createAgent(database.db, userName, 'agent-password-1');
  const res = await tokenPost(app, { grant_type: 'password', username: userName, password: 'agent-password-1' });
  if (res.statusCode !== 200) throw new Error(`agent sign-in failed: ${res.body}`);
  const tok = res.json<{ access_token: string; member_id: number }>();
  return {
    memberId: tok.member_id,
    token: tok.access_token,
    refreshToken: '',
    phone: '',
    headers: { authorization: `Bearer ${tok.access_token}` },
  };
}

/** A multipart body with one file under `key` (the spec's upload helper), plus fields. */
export function multipart(
  file: Buffer,
  filename: string,
  opts: { key?: string; type?: string; fields?: Record<string, string> } = {},
) {
  const boundary = `----parkit${randomUUID()}`;
  const parts: Buffer[] = [];
  for (const [k, v] of Object.entries(opts.fields ?? {})) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`));
  }
  parts.push(
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${opts.key ?? 'file'}"; filename="${filename}"\r\nContent-Type: ${opts.type ?? 'application/octet-stream'}\r\n\r\n`,
    ),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  );
  return { payload: Buffer.concat(parts), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** The smallest valid PNG (1x1), a PDF and a Windows executable's first bytes. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n');
export const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 0x90)]);

/** Reads server-sent events from a listening server until `until` is satisfied or time runs out. */
export async function readEvents(
  url: string,
  headers: Record<string, string>,
  until: (events: unknown[]) => boolean,
  timeoutMs = 10_000,
): Promise<unknown[]> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), timeoutMs);
  const events: unknown[] = [];
  try {
    const res = await fetch(url, { headers, signal: ctrl.signal });
    if (!res.ok || !res.body) throw new Error(`events: ${res.status}`);
    const reader = res.body.pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream()).getReader();
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      events.push(JSON.parse(value.data));
      if (until(events)) break;
    }
  } catch (err) {
    if ((err as Error).name !== 'AbortError') throw err;
  } finally {
    clearTimeout(timer);
    ctrl.abort();
  }
  return events;
}

/** Opens a stream and resolves once it has said 'ready'; `events` then collects the rest. */
export function openStream(
  url: string,
  headers: Record<string, string>,
  until: (events: unknown[]) => boolean,
  timeoutMs = 10_000,
) {
  let ready!: () => void;
  const isReady = new Promise<void>((r) => (ready = r));
  const done = readEvents(
    url,
    headers,
    (events) => {
      if (events.some((e) => (e as { type: string }).type === 'ready')) ready();
      return until(events);
    },
    timeoutMs,
  );
  // The caller handles `done` (a stream the server drops rejects); this chain only lets `ready` go.
  done.finally(() => ready()).catch(() => undefined);
  return { ready: isReady, done };
}

export { expectRefused } from './helpers.ts';

import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * An HTTP stand-in on this machine (an ephemeral port) for a service the app calls out to (a
 * webhook receiver, an SMS gateway): `answer` gets each request and its whole body and says the
 * status, headers and body to send, after `delayMs`.
 */
export async function localServer(
  answer: (req: IncomingMessage, body: string) => { status: number; headers?: Record<string, string>; body?: string },
  delayMs = 0,
): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const out = answer(req, Buffer.concat(chunks).toString('utf8'));
      setTimeout(() => res.writeHead(out.status, out.headers).end(out.body), delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * A job in a second OS process (test/processes/*.ts, run with tsx), for the kill -9 tests: resolves
 * once it prints "ready", rejects with its stderr if it exits before.
 */
export function startRunner(script: string, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve(child));
    child.on('exit', (code, signal) => reject(new Error(`runner exited (${code ?? signal}): ${err}`)));
  });
}

/** Resolves when the process has exited (at once when it already has). */
export const exited = (c: ChildProcess) =>
  new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.once('exit', r)));

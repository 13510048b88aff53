import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@parkit/contract';
import { sql } from 'drizzle-orm';
import { queryRows } from '../src/db/client.ts';
import { as, buildTestApp, freshDatabase, registerAndSignIn, TEST_SECRET } from './helpers.ts';
import { hashPassword } from '../src/auth/passwords.ts';
import { create as createMember } from '../src/members/member-repository.ts';
import { createAgent } from '../src/support/create-agent.ts';
import { defaultOperatorId } from '../src/zones/operator-repository.ts';
import supportBus from '../src/support/support-bus.ts';
import notifications from '../src/infra/notifications.ts';
import db from '../src/plugins/external/db.ts';
import { openStream, signedInAgent } from './support-helpers.ts';

/**
 * An event published on one server process reaches a client connected to another.
 * On PostgreSQL two real server processes share one database (LISTEN/NOTIFY); the embedded
 * PGlite is one process, where the bus is in-process.
 */
const SERVER = join(dirname(fileURLToPath(import.meta.url)), '../src/server.ts');
const PORTS = [Number(process.env.SUPPORT_TEST_PORT_A ?? 3330), Number(process.env.SUPPORT_TEST_PORT_B ?? 3331)];

async function startServer(url: string, port: number, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER], {
    env: {
      ...process.env,
      DATABASE_URL: url,
      PORT: String(port),
      HOST: '127.0.0.1',
      JWT_SECRET: TEST_SECRET,
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      SEED_DEMO: 'false',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return child;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`server on ${port} did not start: ${stderr}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function signIn(port: number, username: string, password: string) {
  const res = await fetch(`http://127.0.0.1:${port}/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username, password }).toString(),
  });
  expect(res.status).toBe(200);
  const tok = (await res.json()) as { access_token: string; member_id: number };
  return { authorization: `Bearer ${tok.access_token}`, xapikey: String(tok.member_id) };
}

if (process.env.TEST_DB === 'postgres') {
  describe('live delivery on PostgreSQL (LISTEN/NOTIFY)', () => {
    // Two server processes start through tsx: on a loaded machine that alone can take most of 30 s.
    it('a message sent through one process reaches streams on the other, both ways', { timeout: 120_000 }, async () => {
      // Migrations applied once, before either server starts.
      const database = await freshDatabase();
      const children: ChildProcess[] = [];
      try {
        const clientId = await defaultOperatorId(database.db);
        await createMember(database.db, {
          UserName: 'xdriver',
          EmailAddress: 'xdriver@example.com',
          PhoneNumber: '5125559900',
          FirstName: 'Cross',
          LastName: 'Process',
          passwordHash: await hashPassword('driver-password-1'),
          clientId,
          verified: true,
        });
        await createAgent(database.db, 'xagent', 'agent-password-1');
        const url = (database.db as unknown as { $client: { options: { connectionString: string } } }).$client.options
          .connectionString;
        const dataDir = mkdtempSync(join(tmpdir(), 'parkit-x-'));
        children.push(await startServer(url, PORTS[0]!, dataDir), await startServer(url, PORTS[1]!, dataDir));
        const [a, b] = PORTS.map((p) => `http://127.0.0.1:${p}`) as [string, string];
        const driver = await signIn(PORTS[0]!, 'xdriver', 'driver-password-1');
        const agent = await signIn(PORTS[1]!, 'xagent', 'agent-password-1');

        // The agent listens on process B, the driver on process A.
        const agentStream = openStream(
          `${b}/api/Support/Console/Events`,
          agent,
          (ev) => ev.some((e) => (e as { message?: ChatMessage }).message?.Text === 'Hello via A'),
          15_000,
        );
        const driverStream = openStream(
          `${a}/api/Support/Chat/Events`,
          driver,
          (ev) => ev.some((e) => (e as { message?: ChatMessage }).message?.Text === 'Reply via B'),
          15_000,
        );
        await Promise.all([agentStream.ready, driverStream.ready]);

        const sent = await fetch(`${a}/api/Support/Chat/Send`, {
          method: 'POST',
          headers: { ...driver, 'content-type': 'application/json' },
          body: JSON.stringify({ Text: 'Hello via A', ClientMessageId: randomUUID() }),
        });
        expect(sent.status).toBe(201);
        const memberId = ((await sent.json()) as ChatMessage).MemberId;
        const agentEvents = await agentStream.done;
        expect(agentEvents).toContainEqual({
          type: 'message',
          message: expect.objectContaining({ Text: 'Hello via A', MemberId: memberId }),
        });

        const reply = await fetch(`${b}/api/Support/Console/Conversations/${memberId}/Send`, {
          method: 'POST',
          headers: { ...agent, 'content-type': 'application/json' },
          body: JSON.stringify({ Text: 'Reply via B', ClientMessageId: randomUUID() }),
        });
        expect(reply.status).toBe(201);
        const driverEvents = await driverStream.done;
        expect(driverEvents).toContainEqual({
          type: 'message',
          message: expect.objectContaining({ Text: 'Reply via B', UserType: 'support' }),
        });
      } finally {
        for (const c of children) c.kill('SIGTERM');
        await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
        await database.close();
      }
    });

    it(
      'a driver whose process is killed (kill -9) reconnects to the other and catches up on the reply',
      { timeout: 120_000 },
      async () => {
        const database = await freshDatabase();
        const children: ChildProcess[] = [];
        try {
          await createMember(database.db, {
            UserName: 'kdriver',
            EmailAddress: 'kdriver@example.com',
            PhoneNumber: '5125559901',
            FirstName: 'Killed',
            LastName: 'Process',
            passwordHash: await hashPassword('driver-password-1'),
            clientId: await defaultOperatorId(database.db),
            verified: true,
          });
          await createAgent(database.db, 'kagent', 'agent-password-1');
          const url = (database.db as unknown as { $client: { options: { connectionString: string } } }).$client.options
            .connectionString;
          const dataDir = mkdtempSync(join(tmpdir(), 'parkit-k-'));
          children.push(await startServer(url, PORTS[0]!, dataDir), await startServer(url, PORTS[1]!, dataDir));
          const [a, b] = PORTS.map((p) => `http://127.0.0.1:${p}`) as [string, string];
          const driver = await signIn(PORTS[0]!, 'kdriver', 'driver-password-1');
          const agent = await signIn(PORTS[1]!, 'kagent', 'agent-password-1');
          const sent = await fetch(`${a}/api/Support/Chat/Send`, {
            method: 'POST',
            headers: { ...driver, 'content-type': 'application/json' },
            body: JSON.stringify({ Text: 'Are you there?', ClientMessageId: randomUUID() }),
          });
          expect(sent.status).toBe(201);
          const memberId = ((await sent.json()) as ChatMessage).MemberId;

          // The driver's live stream is on A; A dies without a word.
          const onA = openStream(`${a}/api/Support/Chat/Events`, driver, () => false, 60_000);
          await onA.ready;
          children[0]!.kill('SIGKILL');
          // The stream on A ends with its socket (the app's EventSource then reconnects).
          await expect(onA.done).rejects.toThrow();
          // The agent answers through B while the driver's stream is down.
          const reply = await fetch(`${b}/api/Support/Console/Conversations/${memberId}/Send`, {
            method: 'POST',
            headers: { ...agent, 'content-type': 'application/json' },
            body: JSON.stringify({ Text: 'Yes, here', ClientMessageId: randomUUID() }),
          });
          expect(reply.status).toBe(201);
          // The app's stream reconnects (the front sends it to B): 'ready' tells it to catch up, and
          // the catch-up read has the reply; what comes after arrives live.
          const onB = openStream(
            `${b}/api/Support/Chat/Events`,
            driver,
            (ev) => ev.some((e) => (e as { message?: ChatMessage }).message?.Text === 'And live again'),
            15_000,
          );
          await onB.ready;
          const caughtUp = await fetch(`${b}/api/Support/Chat/Messages`, { headers: driver });
          expect(caughtUp.status).toBe(200);
          expect(JSON.stringify(await caughtUp.json())).toContain('Yes, here');
          const live = await fetch(`${b}/api/Support/Console/Conversations/${memberId}/Send`, {
            method: 'POST',
            headers: { ...agent, 'content-type': 'application/json' },
            body: JSON.stringify({ Text: 'And live again', ClientMessageId: randomUUID() }),
          });
          expect(live.status).toBe(201);
          expect(await onB.done).toContainEqual({
            type: 'message',
            message: expect.objectContaining({ Text: 'And live again', UserType: 'support' }),
          });
        } finally {
          for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGTERM');
          await Promise.all(
            children.map(
              (c) => new Promise((r) => (c.exitCode !== null || c.signalCode !== null ? r(null) : c.once('exit', r))),
            ),
          );
          await database.close();
        }
      },
    );

    it('comes back after the LISTEN connection is cut, and tells streams to catch up', async () => {
      const { app, database } = await buildTestApp();
      const url = await app.listen({ port: 0, host: '127.0.0.1' });
      const agent = await signedInAgent(app, database);
      const driver = await registerAndSignIn(app);
      const readies = (ev: unknown[]) => ev.filter((e) => (e as { type: string }).type === 'ready').length;
      const stream = openStream(
        `${url}/api/Support/Console/Events`,
        agent.headers,
        (ev) => ev.some((e) => (e as { message?: ChatMessage }).message?.Text === 'After the cut'),
        15_000,
      );
      await stream.ready;
      // The database drops the listening connection (a restart, a failover).
      const name = (await queryRows<{ db: string }>(database.db, sql`select current_database() as db`))[0]!.db;
      const cut = await queryRows<{ ok: boolean; pid: number }>(
        database.db,
        sql`select pg_terminate_backend(pid) as ok, pid from pg_stat_activity where datname = ${name} and query ilike 'LISTEN%'`,
      );
      expect(cut.map((c) => c.ok)).toEqual([true]);
      const old = cut[0]!.pid;
      // Back within seconds: a message sent afterwards is delivered. The LISTEN statements go as one
      // query, one transaction, and take effect when it commits: the connection shows them while
      // they run, so it is back once it is idle after them (a NOTIFY before that commit is missed,
      // as the catch-up 'ready' covers for a real client). The cut backend may still be listed for
      // a moment after pg_terminate_backend answers: only a new one counts.
      await expect
        .poll(
          async () => {
            const listening = await queryRows<{ n: number }>(
              database.db,
              sql`select count(*)::int as n from pg_stat_activity
                   where datname = ${name} and state = 'idle' and query ilike 'LISTEN%' and pid <> ${old}`,
            );
            return Number(listening[0]?.n);
          },
          { timeout: 10_000 },
        )
        .toBe(1);
      const sent = await as(app, driver, {
        method: 'POST',
        url: '/api/Support/Chat/Send',
        payload: { Text: 'After the cut', ClientMessageId: randomUUID() },
      });
      expect(sent.statusCode).toBe(201);
      const events = await stream.done;
      expect(events).toContainEqual({ type: 'message', message: expect.objectContaining({ Text: 'After the cut' }) });
      // The stream was told to catch up on whatever it may have missed meanwhile.
      expect(readies(events)).toBe(2);
    });
  });
} else {
  describe('live delivery on the embedded database', () => {
    it('stays in the process: a published event reaches every subscriber once', async () => {
      const database = await freshDatabase();
      const app = Fastify({ logger: false });
      await app.register(db, { database, closeOnExit: true });
      await app.register(notifications);
      await app.register(supportBus);
      await app.ready();
      const seen: unknown[] = [];
      const off = app.supportBus.subscribe((e) => seen.push(e));
      await app.supportBus.publish({ k: 'message', memberId: 1, messageId: 2 });
      off();
      await app.supportBus.publish({ k: 'message', memberId: 1, messageId: 3 });
      expect(seen).toEqual([{ k: 'message', memberId: 1, messageId: 2 }]);
      await app.close();
    });
  });
}

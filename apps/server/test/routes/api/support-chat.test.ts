import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { MAX_ATTACHMENT_BYTES, type Attachment, type ChatMessage, type Conversation } from '@parkit/contract';
import { queryRows } from '../../../src/db/client.ts';
import { as, buildTestApp, registerAndSignIn, type SignedIn } from '../../helpers.ts';
import { EXE, expectRefused, multipart, openStream, PDF, PNG, signedInAgent } from '../../support-helpers.ts';

const { app, database } = await buildTestApp();
const [alice, bob] = [await registerAndSignIn(app), await registerAndSignIn(app)];
const agent = await signedInAgent(app, database);

function send(who: SignedIn, payload: unknown) {
  return as(app, who, { method: 'POST', url: '/api/Support/Chat/Send', payload: payload as Record<string, unknown> });
}
async function messages(who: SignedIn, query = ''): Promise<ChatMessage[]> {
  const res = await as(app, who, { method: 'GET', url: `/api/Support/Chat/Messages${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<ChatMessage[]>();
}
function upload(who: SignedIn, file: Buffer, name: string, opts: Parameters<typeof multipart>[2] = {}) {
  const body = multipart(file, name, opts);
  return as(app, who, {
    method: 'POST',
    url: '/api/Support/Chat/Attachment',
    payload: body.payload,
    headers: body.headers,
  });
}
async function count(table: 'support_messages' | 'support_attachments'): Promise<number> {
  const [r] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from ${sql.raw(table)}`);
  return Number(r?.n);
}
const cid = () => randomUUID();

describe('the driver’s chat', () => {
  it('needs a signed-in member on every endpoint', async () => {
    for (const [method, url] of [
      ['GET', '/api/Support/Chat/Messages'],
      ['POST', '/api/Support/Chat/Send'],
      ['POST', '/api/Support/Chat/Attachment'],
      ['GET', '/api/Support/Chat/Events'],
      ['GET', `/api/Support/Chat/Attachment/${randomUUID()}`],
    ] as const) {
      expectRefused(await app.inject({ method, url }), 401);
    }
  });

  it('opens with the server’s greeting, once, stored', async () => {
    const first = await messages(alice);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      UserType: 'support',
      Greeting: true,
      Text: expect.stringContaining('How can we help'),
    });
    expect(await messages(alice)).toEqual(first);
  });

  it('greets once even when the first visit comes many times at once', async () => {
    const frank = await registerAndSignIn(app);
    const lists = await Promise.all(Array.from({ length: 6 }, () => messages(frank)));
    for (const list of lists) expect(list.filter((m) => m.Greeting)).toHaveLength(1);
    expect((await messages(frank)).filter((m) => m.Greeting)).toHaveLength(1);
  });

  it('stores a message once per ClientMessageId, even when retried at once', async () => {
    const id = cid();
    const results = await Promise.all(
      Array.from({ length: 8 }, () => send(alice, { Text: '  Where is my receipt?  ', ClientMessageId: id })),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(results.every((r) => r.statusCode === 201 || r.statusCode === 200)).toBe(true);
    const ids = new Set(results.map((r) => r.json<ChatMessage>().MessageId));
    expect(ids.size).toBe(1);
    const list = await messages(alice);
    expect(list.filter((m) => m.ClientMessageId === id)).toHaveLength(1);
    expect(list.at(-1)).toMatchObject({
      UserType: 'user',
      Text: 'Where is my receipt?',
      Greeting: false,
      Attachment: null,
    });
  });

  it('shows HTML as text: it is stored as sent', async () => {
    const res = await send(alice, { Text: '<img src=x onerror=alert(1)>', ClientMessageId: cid() });
    expect(res.statusCode).toBe(201);
    expect(res.json<ChatMessage>().Text).toBe('<img src=x onerror=alert(1)>');
  });

  it('refuses blank, oversized, control characters, wrong types and bad ids, storing nothing', async () => {
    const before = await count('support_messages');
    const bad: [unknown, string][] = [
      [{ Text: '', ClientMessageId: cid() }, 'Text'],
      [{ Text: '   ', ClientMessageId: cid() }, 'Text'],
      [{ ClientMessageId: cid() }, 'Text'],
      [{ Text: 'x'.repeat(2001), ClientMessageId: cid() }, 'Text'],
      [{ Text: 'bell\u0007', ClientMessageId: cid() }, 'Text'],
      [{ Text: 'line\nbreak', ClientMessageId: cid() }, 'Text'],
      [{ Text: 'nul\u0000', ClientMessageId: cid() }, 'Text'],
      [{ Text: 42, ClientMessageId: cid() }, 'Text'],
      [{ Text: ['hi'], ClientMessageId: cid() }, 'Text'],
      [{ Text: 'hi' }, 'ClientMessageId'],
      [{ Text: 'hi', ClientMessageId: 'short' }, 'ClientMessageId'],
      [{ Text: 'hi', ClientMessageId: "x' OR 1=1 --" }, 'ClientMessageId'],
      [{ Text: 'hi', ClientMessageId: 12345678 }, 'ClientMessageId'],
      [{ Text: 'hi', ClientMessageId: cid(), AttachmentId: 'not-a-uuid' }, 'AttachmentId'],
    ];
    for (const [body, field] of bad) expectRefused(await send(alice, body), 400, field);
    expect((await send(alice, { Text: 'x'.repeat(2000), ClientMessageId: cid() })).statusCode).toBe(201);
    expect(await count('support_messages')).toBe(before + 1);
  });

  it('pages older messages with before, and catches up with after', async () => {
    const all = await messages(alice);
    const last = all.at(-1)!;
    const older = await messages(alice, `?before=${last.MessageId}&limit=2`);
    expect(older.map((m) => m.MessageId)).toEqual(all.slice(-3, -1).map((m) => m.MessageId));
    const newer = await messages(alice, `?after=${all[0]!.MessageId}`);
    expect(newer.map((m) => m.MessageId)).toEqual(all.slice(1).map((m) => m.MessageId));
    for (const q of ['?before=abc', '?before=0', '?after=-1', '?limit=0', '?limit=101', '?before=1e3']) {
      expectRefused(await as(app, alice, { method: 'GET', url: `/api/Support/Chat/Messages${q}` }), 400);
    }
  });

  it('keeps each member’s conversation to themselves', async () => {
    const mine = await messages(bob);
    expect(mine).toHaveLength(1);
    expect(mine.every((m) => m.MemberId === bob.memberId)).toBe(true);
  });

  it('rate-limits a member who sends too fast', { timeout: 90_000 }, async () => {
    const carol = await registerAndSignIn(app);
    // The limit counts in fixed one-minute windows: start the 32 sends early in a window, so that a
    // slow machine cannot spread them over two windows (each under the limit).
    const secondsLeft = 60 - ((Date.now() / 1000) % 60);
    if (secondsLeft < 30) await new Promise((resolve) => setTimeout(resolve, secondsLeft * 1000 + 50));
    const results = [];
    for (let i = 0; i < 32; i++) results.push(await send(carol, { Text: `msg ${i}`, ClientMessageId: cid() }));
    expect(results.slice(0, 30).every((r) => r.statusCode === 201)).toBe(true);
    expectRefused(results[31]!, 429);
    expect(results[31]!.headers['retry-after']).toMatch(/^\d+$/);
  });
});

describe('attachments', () => {
  it('takes a PNG and a PDF checked by content, whatever their name', async () => {
    const png = await upload(alice, PNG, 'screenshot.png', { type: 'image/png' });
    expect(png.statusCode, png.body).toBe(201);
    expect(png.json<Attachment>()).toMatchObject({
      FileName: 'screenshot.png',
      ContentType: 'image/png',
      Size: PNG.length,
    });
    const pdf = await upload(alice, PDF, '../../etc/receipt.bin', { type: 'image/png' });
    expect(pdf.statusCode, pdf.body).toBe(201);
    expect(pdf.json<Attachment>()).toMatchObject({ FileName: 'receipt.pdf', ContentType: 'application/pdf' });
  });

  it('refuses an executable named .png, text, an empty file, a missing file, a wrong key and an oversized file', async () => {
    const before = await count('support_attachments');
    expectRefused(await upload(alice, EXE, 'cat.png', { type: 'image/png' }), 415, 'file');
    expectRefused(
      await upload(alice, Buffer.from('<script>alert(1)</script>'), 'x.pdf', { type: 'application/pdf' }),
      415,
      'file',
    );
    expectRefused(await upload(alice, Buffer.alloc(0), 'empty.png'), 400, 'file');
    expectRefused(await upload(alice, PNG, 'a.png', { key: 'image' }), 400, 'file');
    expectRefused(
      await as(app, alice, { method: 'POST', url: '/api/Support/Chat/Attachment', payload: { file: 'abc' } }),
      400,
      'file',
    );
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_ATTACHMENT_BYTES, 1)]);
    const tooBig = await upload(alice, big, 'big.png', { type: 'image/png' });
    expect([413]).toContain(tooBig.statusCode);
    expect(await count('support_attachments')).toBe(before);
  });

  it('sends an attachment with a message; only the owner and agents can download it', async () => {
    const att = (await upload(alice, PNG, 'photo.png')).json<Attachment>();
    const msg = await send(alice, { Text: '', AttachmentId: att.AttachmentId, ClientMessageId: cid() });
    expect(msg.statusCode, msg.body).toBe(201);
    expect(msg.json<ChatMessage>().Attachment).toEqual(att);

    const own = await as(app, alice, { method: 'GET', url: `/api/Support/Chat/Attachment/${att.AttachmentId}` });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.headers['x-content-type-options']).toBe('nosniff');
    expect(own.rawPayload.equals(PNG)).toBe(true);

    // Another member: not found, neither to download nor to send in their own conversation.
    expectRefused(await as(app, bob, { method: 'GET', url: `/api/Support/Chat/Attachment/${att.AttachmentId}` }), 404);
    expectRefused(await send(bob, { Text: 'mine now', AttachmentId: att.AttachmentId, ClientMessageId: cid() }), 404);
    expectRefused(await as(app, alice, { method: 'GET', url: '/api/Support/Chat/Attachment/not-a-uuid' }), 400);

    const byAgent = await as(app, agent, { method: 'GET', url: `/api/Support/Console/Attachment/${att.AttachmentId}` });
    expect(byAgent.statusCode).toBe(200);
    expect(byAgent.rawPayload.equals(PNG)).toBe(true);
    expectRefused(await as(app, agent, { method: 'GET', url: `/api/Support/Console/Attachment/${randomUUID()}` }), 404);
  });
});

describe('the console', () => {
  it('lists conversations newest first with unread counts; reading clears them', async () => {
    await send(bob, { Text: 'Hello from Bob', ClientMessageId: cid() });
    const list = (await as(app, agent, { method: 'GET', url: '/api/Support/Console/Conversations' })).json<
      Conversation[]
    >();
    expect(list[0]).toMatchObject({ MemberId: bob.memberId, LastMessage: 'Hello from Bob', Unread: 1 });
    const a = list.find((c) => c.MemberId === alice.memberId)!;
    expect(a.Unread).toBeGreaterThan(3);
    const read = await as(app, agent, {
      method: 'POST',
      url: `/api/Support/Console/Conversations/${alice.memberId}/Read`,
    });
    expect(read.statusCode).toBe(200);
    const after = (await as(app, agent, { method: 'GET', url: '/api/Support/Console/Conversations' })).json<
      Conversation[]
    >();
    expect(after.find((c) => c.MemberId === alice.memberId)?.Unread).toBe(0);
  });

  it('reads any conversation and replies; the driver sees the reply', async () => {
    const history = (
      await as(app, agent, { method: 'GET', url: `/api/Support/Console/Conversations/${alice.memberId}/Messages` })
    ).json<ChatMessage[]>();
    expect(history.some((m) => m.Attachment?.ContentType === 'image/png')).toBe(true);
    const id = cid();
    const reply = await as(app, agent, {
      method: 'POST',
      url: `/api/Support/Console/Conversations/${alice.memberId}/Send`,
      payload: { Text: 'We are on it', ClientMessageId: id },
    });
    expect(reply.statusCode, reply.body).toBe(201);
    const again = await as(app, agent, {
      method: 'POST',
      url: `/api/Support/Console/Conversations/${alice.memberId}/Send`,
      payload: { Text: 'We are on it', ClientMessageId: id },
    });
    expect(again.statusCode).toBe(200);
    expect(again.json<ChatMessage>().MessageId).toBe(reply.json<ChatMessage>().MessageId);
    const mine = await messages(alice);
    expect(mine.at(-1)).toMatchObject({ UserType: 'support', Greeting: false, Text: 'We are on it' });

    expectRefused(
      await as(app, agent, {
        method: 'POST',
        url: '/api/Support/Console/Conversations/999999/Send',
        payload: { Text: 'x', ClientMessageId: cid() },
      }),
      404,
    );
    expectRefused(
      await as(app, agent, { method: 'GET', url: '/api/Support/Console/Conversations/999999/Messages' }),
      404,
    );
    expectRefused(await as(app, agent, { method: 'GET', url: '/api/Support/Console/Conversations/abc/Messages' }), 400);
    expectRefused(
      await as(app, agent, {
        method: 'POST',
        url: `/api/Support/Console/Conversations/${alice.memberId}/Send`,
        payload: { Text: ' ', ClientMessageId: cid() },
      }),
      400,
      'Text',
    );
  });
});

describe('live delivery', () => {
  it('streams a reply to the driver and the driver’s message to the agent, and replays what was missed', async () => {
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    const driverStream = openStream(`${url}/api/Support/Chat/Events`, alice.headers, (ev) =>
      ev.some((e) => (e as { message?: ChatMessage }).message?.Text === 'Live reply'),
    );
    const agentStream = openStream(`${url}/api/Support/Console/Events`, agent.headers, (ev) =>
      ev.some((e) => (e as { message?: ChatMessage }).message?.Text === 'Live question'),
    );
    await Promise.all([driverStream.ready, agentStream.ready]);
    await send(alice, { Text: 'Live question', ClientMessageId: cid() });
    await as(app, agent, {
      method: 'POST',
      url: `/api/Support/Console/Conversations/${alice.memberId}/Send`,
      payload: { Text: 'Live reply', ClientMessageId: cid() },
    });
    const [driverEvents, agentEvents] = await Promise.all([driverStream.done, agentStream.done]);
    expect(driverEvents[0]).toEqual({ type: 'ready' });
    expect(driverEvents).toContainEqual({
      type: 'message',
      message: expect.objectContaining({ Text: 'Live reply', UserType: 'support' }),
    });
    expect(agentEvents).toContainEqual({
      type: 'message',
      message: expect.objectContaining({ Text: 'Live question', MemberId: alice.memberId }),
    });

    // Bob's stream hears nothing of Alice's conversation.
    const bobStream = openStream(`${url}/api/Support/Chat/Events`, bob.headers, () => false, 1500);
    await bobStream.ready;
    await as(app, agent, {
      method: 'POST',
      url: `/api/Support/Console/Conversations/${alice.memberId}/Send`,
      payload: { Text: 'Not for Bob', ClientMessageId: cid() },
    });
    expect((await bobStream.done).filter((e) => (e as { type: string }).type === 'message')).toEqual([]);

    // Reconnecting with the last id seen replays what came meanwhile.
    const all = await messages(alice);
    const seen = all.at(-3)!.MessageId;
    const replay = await openStream(
      `${url}/api/Support/Chat/Events?after=${seen}`,
      alice.headers,
      (ev) => ev.length >= 3,
    ).done;
    expect(replay.slice(1).map((e) => (e as { message: ChatMessage }).message.MessageId)).toEqual(
      all.slice(-2).map((m) => m.MessageId),
    );
  });

  it('holds at most 5 streams per member', async () => {
    const url = app.server.listening
      ? `http://127.0.0.1:${(app.server.address() as { port: number }).port}`
      : await app.listen({ port: 0, host: '127.0.0.1' });
    const dave = await registerAndSignIn(app);
    const streams = Array.from({ length: 5 }, () =>
      openStream(`${url}/api/Support/Chat/Events`, dave.headers, () => false, 3000),
    );
    await Promise.all(streams.map((s) => s.ready));
    const sixth = await fetch(`${url}/api/Support/Chat/Events`, { headers: dave.headers });
    expect(sixth.status).toBe(429);
    await Promise.all(streams.map((s) => s.done));
    // Closed streams free their places.
    await new Promise((r) => setTimeout(r, 200));
    const again = openStream(`${url}/api/Support/Chat/Events`, dave.headers, (ev) => ev.length > 0, 3000);
    expect((await again.done)[0]).toEqual({ type: 'ready' });
  });

  it('refuses a member on the console stream and a bad after', async () => {
    expectRefused(await as(app, alice, { method: 'GET', url: '/api/Support/Console/Events' }), 403);
    expectRefused(await as(app, alice, { method: 'GET', url: '/api/Support/Chat/Events?after=abc' }), 400);
  });
});

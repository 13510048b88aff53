import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { CallBack, ConsoleCallBack } from '@parkit/contract';
import { queryRows } from '../../../src/db/client.ts';
import { createAgent } from '../../../src/support/create-agent.ts';
import {
  as,
  buildTestApp,
  expectFieldErrors,
  expectRefused,
  registerAndSignIn,
  tokenPost,
  type SignedIn,
} from '../../helpers.ts';

const { app, database } = await buildTestApp();
const [alice, bob] = [await registerAndSignIn(app), await registerAndSignIn(app)];
await createAgent(database.db, 'agent_cb', 'agent-password-1');
const agentTok = (
  await tokenPost(app, { grant_type: 'password', username: 'agent_cb', password: 'agent-password-1' })
).json<{ access_token: string; member_id: number }>();
const agent: SignedIn = {
  memberId: agentTok.member_id,
  token: agentTok.access_token,
  refreshToken: '',
  phone: '',
  headers: { authorization: `Bearer ${agentTok.access_token}` },
};

/** A date `days` ahead in the support time zone (America/Chicago by default), YYYY-MM-DD. */
function dayAhead(days: number): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}

function post(who: SignedIn, payload: unknown) {
  return as(app, who, { method: 'POST', url: '/api/Support/CallBack', payload: payload as Record<string, unknown> });
}

async function rows(): Promise<number> {
  const [r] = await queryRows<{ n: number }>(database.db, sql`select count(*)::int as n from support_callbacks`);
  return Number(r?.n);
}

describe('GET /api/Support/Hours', () => {
  it('gives the support hours from the setting', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/Support/Hours' });
    expect(res.json()).toEqual({
      Open: '09:00',
      Close: '18:00',
      TimeZone: 'America/Chicago',
      SlotMinutes: 30,
      MaxDays: 30,
    });
  });
});

describe('POST /api/Support/CallBack', () => {
  it('needs a signed-in member', async () => {
    expectRefused(
      await app.inject({
        method: 'POST',
        url: '/api/Support/CallBack',
        payload: { Phone: '5125550111', Date: dayAhead(2), Time: '10:00' },
      }),
      401,
    );
    expectRefused(await app.inject({ method: 'GET', url: '/api/Support/CallBacks' }), 401);
  });

  it('refuses a missing field with the spec’s messages and stores nothing', async () => {
    const res = await post(alice, {});
    expectRefused(res, 400);
    expectFieldErrors(res, { Phone: 'Phone is Required', Date: 'Date is Required', Time: 'Time is Required' });
    for (const blank of [
      { Phone: '  ', Date: dayAhead(2), Time: '10:00' },
      { Phone: '5125550111', Date: '', Time: '10:00' },
      { Phone: '5125550111', Date: dayAhead(2), Time: '' },
    ]) {
      expectRefused(await post(alice, blank), 400);
    }
    expect(await rows()).toBe(0);
  });

  it('refuses wrong types, hostile and malformed values', async () => {
    const base = { Phone: '5125550111', Date: dayAhead(2), Time: '10:00' };
    const bad: [string, unknown][] = [
      ['Phone', 5125550111],
      ['Phone', '512-555-0111'],
      ['Phone', '123'],
      ['Phone', '123456789012'],
      ['Phone', "' OR 1=1 --"],
      ['Phone', ['5125550111']],
      ['Date', '2026-02-30'],
      ['Date', 'tomorrow'],
      ['Date', { $gt: '' }],
      ['Date', '<script>'],
      ['Time', '25:00'],
      ['Time', '10:00:00'],
      ['Time', 1000],
      ['Time', null],
      ['Time', 'x'.repeat(10_000)],
    ];
    for (const [field, value] of bad) expectRefused(await post(alice, { ...base, [field]: value }), 400, field);
    expectRefused(
      await app.inject({
        method: 'POST',
        url: '/api/Support/CallBack',
        headers: { ...alice.headers, 'content-type': 'application/json' },
        payload: '{"Phone":',
      }),
      400,
    );
    expect(await rows()).toBe(0);
  });

  it('refuses a slot in the past, outside support hours, off the slot grid or too far ahead', async () => {
    const base = { Phone: '5125550111' };
    expectRefused(
      await post(alice, { ...base, Date: dayAhead(-1), Time: '10:00' }),
      400,
      'Time',
      'Choose a time in the future',
    );
    expectRefused(
      await post(alice, { ...base, Date: dayAhead(2), Time: '08:30' }),
      400,
      'Time',
      'Choose a time within support hours',
    );
    expectRefused(
      await post(alice, { ...base, Date: dayAhead(2), Time: '18:00' }),
      400,
      'Time',
      'Choose a time within support hours',
    );
    expectRefused(
      await post(alice, { ...base, Date: dayAhead(2), Time: '10:15' }),
      400,
      'Time',
      'Choose a time within support hours',
    );
    expectRefused(
      await post(alice, { ...base, Date: dayAhead(40), Time: '10:00' }),
      400,
      'Date',
      'Choose a date within the next 30 days',
    );
    expect(await rows()).toBe(0);
  });

  it('stores a request, lists it as open, refuses the same slot and a 4th open one', async () => {
    const res = await post(alice, { Phone: '5125550111', Date: dayAhead(2), Time: '10:00' });
    expect(res.statusCode, res.body).toBe(201);
    const cb = res.json<CallBack>();
    expect(cb).toMatchObject({ Phone: '5125550111', Date: dayAhead(2), Time: '10:00', Status: 'open' });
    expect(new Date(cb.ScheduledAt).getTime()).toBeGreaterThan(Date.now());
    expectRefused(
      await post(alice, { Phone: '5125550111', Date: dayAhead(2), Time: '10:00' }),
      409,
      'Time',
      'You already asked for a call at this time',
    );
    expect((await post(alice, { Phone: '5125550111', Date: dayAhead(2), Time: '10:30' })).statusCode).toBe(201);
    expect((await post(alice, { Phone: '5125550111', Date: dayAhead(3), Time: '17:30' })).statusCode).toBe(201);
    expectRefused(
      await post(alice, { Phone: '5125550111', Date: dayAhead(4), Time: '11:00' }),
      409,
      undefined,
      'You can have at most 3 open call-back requests',
    );
    const list = (await as(app, alice, { method: 'GET', url: '/api/Support/CallBacks' })).json<CallBack[]>();
    expect(list.map((c) => c.Time)).toEqual(['10:00', '10:30', '17:30']);
    // Bob sees none of Alice's, and the same slot is his to take.
    expect((await as(app, bob, { method: 'GET', url: '/api/Support/CallBacks' })).json()).toEqual([]);
    expect((await post(bob, { Phone: '5125550122', Date: dayAhead(2), Time: '10:00' })).statusCode).toBe(201);
  });

  it('keeps the limit when many requests race', async () => {
    const carol = await registerAndSignIn(app);
    const times = ['09:00', '09:30', '11:00', '11:30', '12:00', '12:30', '13:00', '13:30'];
    const results = await Promise.all(
      [...times, ...times].map((Time) => post(carol, { Phone: '5125550133', Date: dayAhead(5), Time })),
    );
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(3);
    // The rest are refused: over the limit (409) or, past 10 tries an hour, rate-limited (429).
    for (const r of results.filter((x) => x.statusCode !== 201)) expect([409, 429]).toContain(r.statusCode);
    expect(results.some((r) => r.statusCode === 429)).toBe(true);
    const [n] = await queryRows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from support_callbacks where member_id = ${carol.memberId}`,
    );
    expect(Number(n?.n)).toBe(3);
  });
});

describe('npm run support:agent', () => {
  it('gives an existing member the role without touching the password, and a new name an account', async () => {
    const erin = await registerAndSignIn(app, { Password: 'erins-own-password' });
    const [row] = await queryRows<{ user_name: string }>(
      database.db,
      sql`select user_name from members where id = ${erin.memberId}`,
    );
    expect(await as(app, erin, { method: 'GET', url: '/api/Support/Console/Me' }).then((r) => r.statusCode)).toBe(403);
    expect(await createAgent(database.db, row!.user_name)).toEqual({ userName: row!.user_name, created: false });
    expect(await as(app, erin, { method: 'GET', url: '/api/Support/Console/Me' }).then((r) => r.statusCode)).toBe(200);
    expect(
      (await tokenPost(app, { grant_type: 'password', username: row!.user_name, password: 'erins-own-password' }))
        .statusCode,
    ).toBe(200);

    const made = await createAgent(database.db, 'agent_new');
    expect(made).toMatchObject({ userName: 'agent_new', created: true, generatedPassword: expect.any(String) });
    expect(
      (await tokenPost(app, { grant_type: 'password', username: 'agent_new', password: made.generatedPassword! }))
        .statusCode,
    ).toBe(200);
    await expect(createAgent(database.db, 'bad name!')).rejects.toThrow();
  });
});

describe('the console’s call-back queue', () => {
  it('is for agents only: a member gets 403 on every console endpoint', async () => {
    const urls: [string, string][] = [
      ['GET', '/api/Support/Console/Me'],
      ['GET', '/api/Support/Console/CallBacks'],
      ['POST', '/api/Support/Console/CallBacks/1/Close'],
      ['GET', '/api/Support/Console/Conversations'],
      ['GET', `/api/Support/Console/Conversations/${alice.memberId}/Messages`],
      ['POST', `/api/Support/Console/Conversations/${alice.memberId}/Send`],
      ['POST', `/api/Support/Console/Conversations/${alice.memberId}/Read`],
      ['GET', '/api/Support/Console/Attachment/7c9e6679-7425-40de-944b-e07fc1f90ae7'],
      ['GET', '/api/Support/Console/Events'],
    ];
    for (const [method, url] of urls) {
      expectRefused(
        await as(app, alice, {
          method: method as 'GET',
          url,
          payload: method === 'POST' ? { Status: 'called' } : undefined,
        }),
        403,
        undefined,
        'Only support agents can open the console',
      );
      expectRefused(await app.inject({ method: method as 'GET', url }), 401);
    }
  });

  it('lists open requests by scheduled time; an agent closes one and the driver sees it', async () => {
    const queue = (await as(app, agent, { method: 'GET', url: '/api/Support/Console/CallBacks' })).json<
      ConsoleCallBack[]
    >();
    const open = queue.filter((c) => c.Status === 'open');
    expect(open.length).toBeGreaterThanOrEqual(7);
    const times = open.map((c) => c.ScheduledAt);
    expect(times).toEqual([...times].sort());
    const first = open.find((c) => c.MemberId === alice.memberId)!;
    expect(first.UserName).toEqual(expect.any(String));

    for (const body of [{}, { Status: 'done' }, { Status: 1 }, { Status: null }]) {
      expectRefused(
        await as(app, agent, {
          method: 'POST',
          url: `/api/Support/Console/CallBacks/${first.CallBackId}/Close`,
          payload: body,
        }),
        400,
        'Status',
      );
    }
    for (const id of ['abc', '0', '-1', '1.5']) {
      expectRefused(
        await as(app, agent, {
          method: 'POST',
          url: `/api/Support/Console/CallBacks/${id}/Close`,
          payload: { Status: 'called' },
        }),
        400,
      );
    }
    expectRefused(
      await as(app, agent, {
        method: 'POST',
        url: '/api/Support/Console/CallBacks/999999/Close',
        payload: { Status: 'called' },
      }),
      404,
    );

    const closed = await as(app, agent, {
      method: 'POST',
      url: `/api/Support/Console/CallBacks/${first.CallBackId}/Close`,
      payload: { Status: 'called' },
    });
    expect(closed.statusCode, closed.body).toBe(200);
    expect(closed.json()).toMatchObject({ CallBackId: first.CallBackId, Status: 'called' });
    expectRefused(
      await as(app, agent, {
        method: 'POST',
        url: `/api/Support/Console/CallBacks/${first.CallBackId}/Close`,
        payload: { Status: 'no_answer' },
      }),
      409,
    );
    const mine = (await as(app, alice, { method: 'GET', url: '/api/Support/CallBacks' })).json<CallBack[]>();
    expect(mine.find((c) => c.CallBackId === first.CallBackId)?.Status).toBe('called');
    // Two agents closing one request at once: one wins, the other hears it is closed.
    const next = open.find((c) => c.MemberId !== alice.memberId)!;
    const both = await Promise.all(
      (['called', 'no_answer'] as const).map((Status) =>
        as(app, agent, {
          method: 'POST',
          url: `/api/Support/Console/CallBacks/${next.CallBackId}/Close`,
          payload: { Status },
        }),
      ),
    );
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    // A closed request frees a place: Alice may book again.
    expect((await post(alice, { Phone: '5125550111', Date: dayAhead(6), Time: '09:00' })).statusCode).toBe(201);
  });
});

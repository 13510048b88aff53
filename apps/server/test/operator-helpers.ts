import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { OperatorRole, PolicyVersion } from '@parkit/contract';
import { sql } from 'drizzle-orm';
import { queryRows, type Db, type Executor } from '../src/db/client.ts';
import { addStaff, createOperator, makeOwner } from '../src/operators/index.ts';
import { defaultOperatorId } from '../src/zones/index.ts';
import {
  as,
  buildTestApp,
  freshLimitsEachTest,
  MANY_REQUESTS,
  registerAndSignIn,
  tokenPost,
  type SignedIn,
} from './helpers.ts';

const PASSWORD = 'owner-password-1';

/** An operator's owner made as `npm run operator:create` makes one, signed in through /token. */
export async function signedInOwner(app: FastifyInstance, db: Db, operatorId: number): Promise<SignedIn> {
  const userName = `owner_${randomUUID().slice(0, 8)}`;
  await makeOwner(db, operatorId, userName, PASSWORD);
  const res = await tokenPost(app, { grant_type: 'password', username: userName, password: PASSWORD });
  if (res.statusCode !== 200) throw new Error(`owner sign-in failed: ${res.body}`);
  const tok = res.json<{ access_token: string; member_id: number }>();
  return {
    memberId: tok.member_id,
    token: tok.access_token,
    refreshToken: '',
    phone: '',
    headers: { authorization: `Bearer ${tok.access_token}`, xapikey: String(tok.member_id) },
  };
}

/**
 * An operator row in the columns every release has had, for a database an earlier migration left
 * (today's schema inserts columns such a database lacks). Answers its id.
 */
export async function insertOperatorRow(db: Executor, name: string, timezone = 'America/Chicago'): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    db,
    sql`insert into operators (name, city, state, lat, lng, timezone)
        values (${name}, 'Austin', 'TX', 30.2672, -97.7431, ${timezone}) returning id`,
  );
  return Number(row!.id);
}

/** A new operator (in Austin, as the first). */
export const newOperator = (db: Db, name = `Operator ${randomUUID().slice(0, 6)}`) => createOperator(db, { name });

/** A registered member given a role at the operator directly (the invitation has its own tests). */
export async function staffMember(app: FastifyInstance, db: Db, operatorId: number, role: OperatorRole) {
  const who = await registerAndSignIn(app);
  await addStaff(db, operatorId, who.memberId, role);
  return who;
}

/** The newest invitation code (8 digits) sent to a phone or an e-mail address. */
export async function lastInviteCode(app: FastifyInstance, contact: string): Promise<string> {
  const res = await app.inject({ method: 'GET', url: `/api/Dev/Outbox?to=${encodeURIComponent(contact)}&limit=1` });
  const [msg] = res.json<{ Body: string }[]>();
  const code = /\b(\d{8})\b/.exec(msg?.Body ?? '')?.[1];
  if (!code) throw new Error(`no invitation code in the outbox for ${contact}`);
  return code;
}

/** The owner invites the member's phone with the role, and the member accepts with the code. */
export async function inviteAndAccept(
  app: FastifyInstance,
  owner: SignedIn,
  operatorId: number,
  member: SignedIn,
  role: OperatorRole,
) {
  const inv = await as(app, owner, {
    method: 'POST',
    url: `/api/Operator/${operatorId}/Invites`,
    payload: { Contact: member.phone, Role: role },
  });
  if (inv.statusCode !== 201) throw new Error(`invite failed: ${inv.statusCode} ${inv.body}`);
  const code = await lastInviteCode(app, member.phone);
  return as(app, member, { method: 'POST', url: '/api/Account/OperatorInvite', payload: { Code: code } });
}

/**
 * The start of a console test: an app on a new database (limits lifted and reset before each test),
 * the demo operator A with its owner and one staff member per role asked for, and another
 * operator B (named `otherName`) with its owner, whose ids A's people must never reach.
 */
export async function twoOperators<R extends OperatorRole>(
  otherName: string,
  roles: readonly R[],
  opts: { decorations?: boolean; config?: Record<string, unknown> } = {},
) {
  const { app, database } = await buildTestApp({ ...MANY_REQUESTS, ...opts.config }, opts);
  const { db } = database;
  freshLimitsEachTest(database);
  const A = await defaultOperatorId(db);
  const B = await newOperator(db, otherName);
  const owner = await signedInOwner(app, db, A);
  const ownerB = await signedInOwner(app, db, B);
  const staff = {} as Record<R, SignedIn>;
  for (const role of roles) staff[role] = await staffMember(app, db, A, role);
  return { app, database, db, A, B, owner, ownerB, staff };
}

/**
 * A price policy of one all-day span with progressive rates (`[fromMinute, centsPerHour]`),
 * created through the console as `who` and assigned to `zoneIds`: its first version.
 */
export async function allDayPolicy(
  app: FastifyInstance,
  who: SignedIn,
  operatorId: number,
  r: { name: string; zoneIds: number[]; rates: [number, number][]; maxStayMinutes: number },
): Promise<PolicyVersion> {
  const created = await as(app, who, {
    method: 'POST',
    url: `/api/Operator/${operatorId}/Policies`,
    payload: {
      Name: r.name,
      Body: {
        Spans: [
          {
            Id: 'all',
            Name: 'All day',
            Rate: r.rates.map(([FromMinute, CentsPerHour]) => ({ FromMinute, CentsPerHour })),
          },
        ],
        Holidays: [],
        MaxStayMinutes: r.maxStayMinutes,
      },
    },
  });
  if (created.statusCode !== 201) throw new Error(`policy: ${created.statusCode} ${created.body}`);
  const v = created.json<PolicyVersion>();
  const assigned = await as(app, who, {
    method: 'POST',
    url: `/api/Operator/${operatorId}/Policies/${v.PolicyId}/Zones`,
    payload: { ZoneIds: r.zoneIds },
  });
  if (assigned.statusCode !== 200) throw new Error(`policy's zones: ${assigned.statusCode} ${assigned.body}`);
  return v;
}

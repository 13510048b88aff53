import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import {
  OPERATOR_MESSAGES as M,
  type OperatorMembership,
  type OperatorRole,
  type PendingInvite,
} from '@parkit/contract';
import type { Db } from '../db/client.ts';
import { conflict, HttpError, notFound, tooManyRequests } from '../lib/http-error.ts';
import { audit, type Actor } from '../infra/audit-log.ts';
import * as outbox from '../infra/outbox-repository.ts';
import { hit } from '../infra/rate-limits/rate-limit-repository.ts';
import { findById } from '../members/index.ts';
import { operatorById } from '../zones/index.ts';
import type { Language } from '../lib/language.ts';
import * as invites from './invite-repository.ts';
import { inviteLanguage, inviteText } from './invite-text.ts';
import * as staff from './staff-repository.ts';

/** Invitations an operator sends in an hour: enough for a team, not for spamming phones. */
export const INVITE_LIMIT = { bucket: 'operator:invite', limit: 30, windowSeconds: 60 * 60 };

/** Codes a member tries in an hour (each open invitation also stops after INVITE_ATTEMPTS wrong ones). */
export const ACCEPT_LIMIT = { bucket: 'operator:accept', limit: 10, windowSeconds: 60 * 60 };

const hashCode = (code: string) => createHash('sha256').update(code).digest('hex');

/** What an audit entry keeps of a membership. */
const staffSnapshot = (memberId: number, userName: string, role: OperatorRole) => ({
  MemberId: memberId,
  UserName: userName,
  Role: role,
});

/**
 * Sends an invitation: a code of 8 digits to the phone (SMS) or e-mail address, through the
 * outbox; only its hash is kept. Refused when someone with that contact already works for the
 * operator. Written in the invited person's language if they are a member, else the inviter's
 * (invite-text.ts). Audited.
 */
export async function invite(
  db: Db,
  operatorId: number,
  actor: Actor,
  input: { Contact: string; Role: OperatorRole },
  language: Language = 'en',
): Promise<PendingInvite> {
  const wait = await hit(db, INVITE_LIMIT, `operator:${operatorId}`);
  if (wait > 0) throw tooManyRequests(M.tooManyInvites, wait);
  const code = String(randomInt(0, 1e8)).padStart(8, '0');
  return db.transaction(async (tx) => {
    if (!(await staff.lockOperator(tx, operatorId))) throw notFound(M.operatorNotFound);
    if (await staff.contactIsStaff(tx, operatorId, input.Contact)) throw conflict('Contact', M.alreadyStaff);
    const row = await invites.insertInvite(tx, {
      operatorId,
      contact: input.Contact,
      role: input.Role,
      codeHash: hashCode(code),
      invitedBy: actor.id,
    });
    const channel = input.Contact.includes('@') ? 'email' : 'sms';
    const operator = await operatorById(tx, operatorId);
    const text = inviteText(operator?.name ?? 'ParkIt', input.Role, channel, code, invites.INVITE_DAYS);
    await outbox.enqueue(tx, channel, input.Contact, text[await inviteLanguage(tx, input.Contact, language)]);
    const after = { InviteId: row.id, Contact: row.contact, Role: row.role };
    await audit(tx, {
      operatorId,
      actor,
      action: 'invite.create',
      entity: 'invite',
      entityId: row.id,
      before: null,
      after,
    });
    return {
      InviteId: row.id,
      Contact: row.contact,
      Role: row.role as OperatorRole,
      ExpiresAt: row.expiresAt.toISOString(),
      CreatedAt: row.createdAt.toISOString(),
    };
  });
}

/** Withdraws an open invitation (its code stops working). Audited; 404 when there is none open. */
export async function withdrawInvite(db: Db, operatorId: number, actor: Actor, inviteId: number): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await invites.revokeInvite(tx, operatorId, inviteId);
    if (!row) throw notFound(M.inviteNotFound);
    const before = { InviteId: row.id, Contact: row.contact, Role: row.role };
    await audit(tx, {
      operatorId,
      actor,
      action: 'invite.revoke',
      entity: 'invite',
      entityId: row.id,
      before,
      after: null,
    });
  });
}

/**
 * The signed-in member accepts an invitation sent to their phone or e-mail address with its code:
 * they join the operator with the invitation's role (one who already works there keeps theirs).
 * A wrong code counts against every open invitation to them; a code is used once, even by two
 * requests at the same moment (the invitations are locked).
 */
export async function acceptInvite(db: Db, memberId: number, code: string): Promise<OperatorMembership> {
  const wait = await hit(db, ACCEPT_LIMIT, `member:${memberId}`);
  if (wait > 0) throw tooManyRequests(M.tooManyAttempts, wait);
  const member = await findById(db, memberId);
  if (!member) throw notFound();
  const presented = Buffer.from(hashCode(code), 'hex');
  const result = await db.transaction(async (tx) => {
    const open = await invites.lockOpenInvites(tx, [member.phone, member.email.toLowerCase()]);
    const match = open.find((i) => timingSafeEqual(Buffer.from(i.codeHash, 'hex'), presented));
    if (!match) {
      await invites.countWrongCode(
        tx,
        open.map((i) => i.id),
      );
      return null;
    }
    await staff.lockOperator(tx, match.operatorId);
    const role = match.role as OperatorRole;
    const added = await staff.addStaff(tx, match.operatorId, memberId, role);
    await invites.markAccepted(tx, match.id, memberId);
    const actor = { id: memberId, name: member.userName };
    if (added)
      await audit(tx, {
        operatorId: match.operatorId,
        actor,
        action: 'staff.join',
        entity: 'staff',
        entityId: memberId,
        before: null,
        after: { ...staffSnapshot(memberId, member.userName, role), InviteId: match.id },
      });
    return match.operatorId;
  });
  if (result === null) throw new HttpError(400, M.inviteInvalid, [{ field: 'Code', message: M.inviteInvalid }]);
  const joined = (await staff.membershipsOf(db, memberId)).find((m) => m.OperatorId === result);
  if (!joined) throw notFound();
  return joined;
}

/**
 * Changes a person's role. The last owner stays an owner: the operator's row is locked first, so
 * two owners demoting each other at once leave one. Audited; 404 for someone not on the team.
 */
export async function changeRole(
  db: Db,
  operatorId: number,
  actor: Actor,
  memberId: number,
  role: OperatorRole,
): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await staff.lockOperator(tx, operatorId))) throw notFound(M.operatorNotFound);
    const current = await staff.roleAt(tx, operatorId, memberId);
    if (!current) throw notFound(M.personNotFound);
    if (current === role) return;
    if (current === 'owner' && (await staff.ownerCount(tx, operatorId)) <= 1) throw conflict('Role', M.lastOwner);
    await staff.setRole(tx, operatorId, memberId, role);
    const who = await findById(tx, memberId);
    const name = who?.userName ?? '';
    await audit(tx, {
      operatorId,
      actor,
      action: 'staff.role',
      entity: 'staff',
      entityId: memberId,
      before: staffSnapshot(memberId, name, current),
      after: staffSnapshot(memberId, name, role),
    });
  });
}

/** Removes a person from the operator's team (never the last owner). Audited; 404 for someone not on it. */
export async function removeStaff(db: Db, operatorId: number, actor: Actor, memberId: number): Promise<void> {
  await db.transaction(async (tx) => {
    if (!(await staff.lockOperator(tx, operatorId))) throw notFound(M.operatorNotFound);
    const current = await staff.roleAt(tx, operatorId, memberId);
    if (!current) throw notFound(M.personNotFound);
    if (current === 'owner' && (await staff.ownerCount(tx, operatorId)) <= 1) throw conflict('MemberId', M.lastOwner);
    await staff.deleteStaff(tx, operatorId, memberId);
    const who = await findById(tx, memberId);
    await audit(tx, {
      operatorId,
      actor,
      action: 'staff.remove',
      entity: 'staff',
      entityId: memberId,
      before: staffSnapshot(memberId, who?.userName ?? '', current),
      after: null,
    });
  });
}

import { randomBytes, randomInt } from 'node:crypto';
import { MESSAGES, UserName } from '@parkit/contract';
import type { Db, Tx } from '../db/client.ts';
import { operators } from '../db/schema/index.ts';
import { audit, COMMAND_LINE } from '../infra/audit-log.ts';
import { hashPassword } from '../auth/index.ts';
import * as members from '../members/index.ts';
import { FIRST_OPERATOR } from '../zones/index.ts';
import { addStaff, lockOperator, roleAt, setRole } from './staff-repository.ts';

/** Who the audit log names for a change made with a command-line tool or the demo seed. */
export { COMMAND_LINE };

export interface OwnerResult {
  userName: string;
  /** A new account was made for the name. */
  created: boolean;
  /** The password made for a new account when none was given (shown once). */
  generatedPassword?: string;
}

/**
 * Makes the member named `userName` an owner of the operator, creating the account when the name
 * is new (with `password`, or a generated one). An operator's account has no real phone: it gets
 * a number starting with 0, which no North American number has, and an address at
 * operator.parkit.invalid; the owner can invite their real phone later. Audited.
 */
export async function makeOwner(db: Db, operatorId: number, userName: string, password?: string): Promise<OwnerResult> {
  const name = UserName.safeParse(userName);
  if (!name.success) throw new Error(MESSAGES.usernameFormat);
  if (password !== undefined && (password.length < 8 || password.length > 128))
    throw new Error(MESSAGES.passwordLength);
  const existing = await members.findByLogin(db, name.data);
  const generated = existing || password ? undefined : randomBytes(12).toString('base64url');
  const hash = existing ? null : await hashPassword(password ?? generated!);
  return db.transaction(async (tx) => {
    if (!(await lockOperator(tx, operatorId))) throw new Error(`No operator ${operatorId}.`);
    const member =
      existing ??
      (await members.create(tx, {
        UserName: name.data,
        EmailAddress: `${name.data.toLowerCase()}@operator.parkit.invalid`,
        PhoneNumber: `0${String(randomInt(0, 1e9)).padStart(9, '0')}`,
        FirstName: name.data,
        LastName: '',
        passwordHash: hash!,
        clientId: operatorId,
        verified: true,
      }));
    await ownerRow(tx, operatorId, member.id, member.userName);
    return { userName: member.userName, created: !existing, ...(generated ? { generatedPassword: generated } : {}) };
  });
}

async function ownerRow(tx: Tx, operatorId: number, memberId: number, userName: string) {
  const before = await roleAt(tx, operatorId, memberId);
  if (before === 'owner') return;
  if (before) await setRole(tx, operatorId, memberId, 'owner');
  else await addStaff(tx, operatorId, memberId, 'owner');
  await audit(tx, {
    operatorId,
    actor: COMMAND_LINE,
    action: before ? 'staff.role' : 'staff.join',
    entity: 'staff',
    entityId: memberId,
    before: before ? { MemberId: memberId, UserName: userName, Role: before } : null,
    after: { MemberId: memberId, UserName: userName, Role: 'owner' },
  });
}

export interface NewOperator {
  name: string;
  city?: string;
  state?: string;
  lat?: number;
  lng?: number;
  timezone?: string;
}

/**
 * A new operator (`npm run operator:create`). What is not given is the first operator's (the demo
 * city's): the console changes it later.
 */
export async function createOperator(db: Db, input: NewOperator): Promise<number> {
  const name = input.name.trim();
  if (name.length < 1 || name.length > 100) throw new Error('--name needs a text of 1 to 100 characters');
  if (input.timezone !== undefined && !validTimeZone(input.timezone))
    throw new Error(`--timezone ${input.timezone} is not an IANA time zone`);
  const [made] = await db
    .insert(operators)
    .values({
      name,
      city: input.city ?? FIRST_OPERATOR.city,
      state: input.state ?? FIRST_OPERATOR.state,
      lat: input.lat ?? FIRST_OPERATOR.lat,
      lng: input.lng ?? FIRST_OPERATOR.lng,
      timezone: input.timezone ?? FIRST_OPERATOR.timezone,
    })
    .returning({ id: operators.id });
  return made!.id;
}

function validTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

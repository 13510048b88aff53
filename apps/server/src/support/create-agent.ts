import { randomBytes, randomInt } from 'node:crypto';
import { MESSAGES, UserName } from '@parkit/contract';
import type { Db } from '../db/client.ts';
import { defaultOperatorId } from '../zones/index.ts';
import { hashPassword } from '../auth/index.ts';
import * as members from '../members/index.ts';
import { grant } from './agent-repository.ts';

export interface CreatedAgent {
  userName: string;
  created: boolean;
  generatedPassword?: string;
}

/**
 * Makes a member a support agent, creating the account when the name is new. An agent account
 * has no real phone: it gets a number starting with 0, which no North American number does.
 */
export async function createAgent(db: Db, userName: string, password?: string): Promise<CreatedAgent> {
  const name = UserName.safeParse(userName);
  if (!name.success) throw new Error(MESSAGES.usernameFormat);
  const existing = await members.findByLogin(db, name.data);
  if (existing) {
    await grant(db, existing.id);
    return { userName: existing.userName, created: false };
  }
  const generated = password ? undefined : randomBytes(12).toString('base64url');
  const secret = password ?? generated!;
  if (secret.length < 8 || secret.length > 128) throw new Error(MESSAGES.passwordLength);
  const clientId = await defaultOperatorId(db);
  const phone = `0${String(randomInt(0, 1e9)).padStart(9, '0')}`;
  const member = await db.transaction(async (tx) => {
    const m = await members.create(tx, {
      UserName: name.data,
      EmailAddress: `${name.data.toLowerCase()}@support.parkit.invalid`,
      PhoneNumber: phone,
      FirstName: 'ParkIt',
      LastName: 'Support',
      passwordHash: await hashPassword(secret),
      clientId,
      verified: true,
    });
    await grant(tx, m.id);
    return m;
  });
  return { userName: member.userName, created: true, ...(generated ? { generatedPassword: generated } : {}) };
}

import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '@parkit/contract';
import { badRequest } from '../../../lib/http-error.ts';
import * as members from '../members/member-repository.ts';
import * as rate from './rate-limit-repository.ts';
import { DUMMY_HASH, verifyPassword } from './passwords.ts';
import { enforce, enforceAddress, LIMITS } from './login-limits.ts';

/** grant_type=password: username or e-mail and password. Returns the member id signed in. */
export async function passwordGrant(app: FastifyInstance, ip: string, username: string, password: string): Promise<number> {
  await enforceAddress(app, LIMITS.loginAddress, ip);
  const member = await members.findByLogin(app.db, username);
  // Counted per account, not per name: username and e-mail must not give twice the tries.
  const accountKey = member ? `member:${member.id}` : `name:${username.toLowerCase()}`;
  await enforce(app.db, LIMITS.loginAccount, accountKey);
  const ok = await verifyPassword(password, member?.passwordHash ?? DUMMY_HASH);
  if (!member || !ok) throw badRequest('password', MESSAGES.invalidCredentials);
  await rate.reset(app.db, LIMITS.loginAccount.bucket, accountKey);
  return member.id;
}

import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { MESSAGES } from '@parkit/contract';
import { badRequest, HttpError } from '../lib/http-error.ts';
import * as members from '../members/index.ts';
import { DUMMY_HASH, hashPassword, needsRehash, verifyPassword } from './passwords.ts';
import { BACKOFF, underBackoff } from './login-limits.ts';

export const DEVICE_COOKIE = 'parkit_dev';
const DEVICE_COOKIE_DAYS = 365;

/**
 * grant_type=password: username or e-mail and password. Returns the member id signed in.
 * Failures back off per account, per device cookie and per address: a stranger's
 * wrong guesses lock the account for strangers, never for a device the member signed in on.
 */
export async function passwordGrant(
  app: FastifyInstance,
  req: FastifyRequest,
  reply: FastifyReply,
  username: string,
  password: string,
): Promise<number> {
  const member = await members.findByLogin(app.db, username);
  const device = member ? app.tokens.readDevice(req.cookies[DEVICE_COOKIE], member.id) : null;
  // Counted per account, not per name: username and e-mail must not give twice the tries.
  const key: [typeof BACKOFF.account | typeof BACKOFF.device, string] = device
    ? [BACKOFF.device, device]
    : [BACKOFF.account, member ? `member:${member.id}` : `name:${username.toLowerCase()}`];
  const ok = await underBackoff(
    app,
    req.ip,
    key,
    async () => (await verifyPassword(password, member?.passwordHash ?? DUMMY_HASH)) && Boolean(member),
  );
  if (!member || !ok) throw badRequest('password', MESSAGES.invalidCredentials);
  // The phone must be proven (a code) before a password opens the account.
  if (!member.phoneVerifiedAt)
    throw new HttpError(403, MESSAGES.phoneNotVerified, [{ field: 'username', message: MESSAGES.phoneNotVerified }]);
  if (needsRehash(member.passwordHash))
    await members.setPasswordHash(app.db, member.id, member.passwordHash, await hashPassword(password));
  if (!device) {
    void reply.setCookie(DEVICE_COOKIE, app.tokens.deviceCookie(member.id), {
      httpOnly: true,
      sameSite: 'strict',
      secure: app.secureCookies,
      path: '/token',
      maxAge: DEVICE_COOKIE_DAYS * 86_400,
    });
  }
  return member.id;
}

import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '@parkit/contract';
import { badRequest } from '../lib/http-error.ts';
import * as members from '../members/index.ts';
import { claimGuestSessions } from '../parking/index.ts';
import * as otp from './otp-repository.ts';
import { BACKOFF, underBackoff } from './login-limits.ts';

/**
 * Checks a code for a phone: counted per address and per phone across all its codes (back-off),
 * and per code (five tries, atomically). Throws 400 for a wrong code, 429 while locked.
 */
export async function checkCode(
  app: FastifyInstance,
  ip: string,
  phone: string,
  purpose: otp.OtpPurpose,
  code: string,
  field: string,
) {
  if (!(await underBackoff(app, ip, [BACKOFF.phone, phone], () => otp.consume(app.db, phone, purpose, code))))
    throw badRequest(field, MESSAGES.invalidCode);
}

/** grant_type=otp: a code sent to the phone. Verifies the phone; returns the member id signed in. */
export async function otpGrant(app: FastifyInstance, ip: string, phone: string, code: string): Promise<number> {
  await checkCode(app, ip, phone, 'login', code, 'code');
  const member = await members.findByPhone(app.db, phone);
  if (!member) throw badRequest('code', MESSAGES.invalidCode);
  await members.markPhoneVerified(app.db, member.id);
  // Quick Park sessions paid from this phone become the new member's.
  await claimGuestSessions(app.db, member.id, phone);
  return member.id;
}

import type { FastifyInstance } from 'fastify';
import { MESSAGES } from '@parkit/contract';
import { badRequest } from '../../../lib/http-error.ts';
import * as members from '../members/member-repository.ts';
import { claimGuestSessions } from '../parking/guest-service.ts';
import * as otp from './otp-repository.ts';
import { enforceAddress, LIMITS } from './login-limits.ts';

/** grant_type=otp: a code sent to the phone. Verifies the phone; returns the member id signed in. */
export async function otpGrant(app: FastifyInstance, ip: string, phone: string, code: string): Promise<number> {
  await enforceAddress(app, LIMITS.loginAddress, ip);
  const valid = await otp.consume(app.db, phone, 'login', code);
  const member = valid ? await members.findByPhone(app.db, phone) : null;
  if (!member) throw badRequest('code', MESSAGES.invalidCode);
  await members.markPhoneVerified(app.db, member.id);
  // Quick Park sessions paid from this phone become the new member's (issue 11).
  await claimGuestSessions(app.db, member.id, phone);
  return member.id;
}

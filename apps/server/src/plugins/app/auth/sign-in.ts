import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TokenResponse } from '@parkit/contract';
import { MESSAGES } from '@parkit/contract';
import { tooManyRequests } from '../../../lib/http-error.ts';
import type { Executor } from '../../../db/client.ts';
import * as otp from './otp-repository.ts';
import * as outbox from './outbox-repository.ts';
import * as rate from './rate-limit-repository.ts';
import * as refresh from './refresh-token-repository.ts';
import { ACCESS_TOKEN_SECONDS } from './tokens.ts';

export const REFRESH_COOKIE = 'parkit_rt';

/** Login attempts: per account and per address, counted in the database (issue 2). */
export const LIMITS = {
  loginAccount: { bucket: 'login:account', limit: 10, windowSeconds: 15 * 60 },
  loginAddress: { bucket: 'login:address', limit: 60, windowSeconds: 15 * 60 },
  codeAddress: { bucket: 'code:address', limit: 20, windowSeconds: 60 * 60 },
  registerAddress: { bucket: 'register:address', limit: 20, windowSeconds: 60 * 60 },
} as const;

/** A per-address limit, scaled for test runs that all come from one address. */
export function enforceAddress(app: FastifyInstance, limit: rate.Limit, address: string): Promise<void> {
  return enforce(app.db, { ...limit, limit: limit.limit * app.addressLimitScale }, address);
}

export async function enforce(db: Executor, limit: rate.Limit, key: string): Promise<void> {
  const wait = await rate.hit(db, limit, key);
  if (wait > 0) throw tooManyRequests(MESSAGES.tooManyAttempts, wait);
}

/** Sends a sign-in code to a phone, or pretends to when no account has it (never reveal which). */
export async function sendCode(db: Executor, phone: string, purpose: otp.OtpPurpose, deliver: boolean): Promise<void> {
  const wait = await otp.resendWait(db, phone, purpose);
  if (wait > 0) throw tooManyRequests(MESSAGES.codeTooSoon, wait);
  const code = await otp.issue(db, phone, purpose);
  if (deliver) {
    const what = purpose === 'reset' ? 'password reset' : 'sign-in';
    await outbox.enqueue(db, 'sms', phone, `Your ParkIt ${what} code is ${code}. It expires in 10 minutes.`);
  }
}

/** Issues an access token and a new refresh-token family; the refresh token also goes in a cookie. */
export async function issueTokens(
  app: FastifyInstance,
  reply: FastifyReply,
  memberId: number,
  amr: 'pwd' | 'otp',
  refreshToken?: string,
  authTime: number = Math.floor(Date.now() / 1000),
): Promise<TokenResponse> {
  const rt = refreshToken ?? (await refresh.create(app.db, memberId, amr));
  const access = await app.tokens.sign({ memberId, amr, authTime });
  setRefreshCookie(reply, rt);
  return { access_token: access, token_type: 'Bearer', expires_in: ACCESS_TOKEN_SECONDS, refresh_token: rt, member_id: memberId, amr };
}

export function setRefreshCookie(reply: FastifyReply, token: string) {
  void reply.setCookie(REFRESH_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: process.env.NODE_ENV === 'production',
    path: '/',
    maxAge: refresh.REFRESH_TOKEN_DAYS * 86_400,
  });
}

export function clearRefreshCookie(reply: FastifyReply) {
  void reply.clearCookie(REFRESH_COOKIE, { path: '/' });
}

/** '5125550123' → '******0123': enough for the driver to recognise, no more. */
export const maskPhone = (phone: string) => phone.slice(-4).padStart(phone.length, '*');

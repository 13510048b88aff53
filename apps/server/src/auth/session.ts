import type { FastifyInstance, FastifyReply } from 'fastify';
import { SPEC_MESSAGES, type TokenResponse } from '@parkit/contract';
import { HttpError } from '../lib/http-error.ts';
import * as members from '../members/index.ts';
import * as refresh from './refresh-token-repository.ts';
import { ACCESS_TOKEN_SECONDS } from './tokens.ts';

export const REFRESH_COOKIE = 'parkit_rt';

/**
 * Issues an access token (carrying the member's session version) and a new refresh-token family;
 * the refresh token also goes in a cookie. A member who no longer exists gets a 401.
 */
export async function issueTokens(
  app: FastifyInstance,
  reply: FastifyReply,
  memberId: number,
  amr: 'pwd' | 'otp',
  refreshToken?: string,
  authTime: number = Math.floor(Date.now() / 1000),
): Promise<TokenResponse> {
  const sessionVersion = await members.sessionVersion(app.db, memberId);
  if (sessionVersion === null) throw new HttpError(401, SPEC_MESSAGES.unauthorized);
  const rt = refreshToken ?? (await refresh.create(app.db, memberId, amr));
  const access = await app.tokens.sign({ memberId, amr, authTime, sessionVersion });
  setRefreshCookie(app, reply, rt);
  return {
    access_token: access,
    token_type: 'Bearer',
    expires_in: ACCESS_TOKEN_SECONDS,
    refresh_token: rt,
    member_id: memberId,
    amr,
  };
}

export function setRefreshCookie(app: FastifyInstance, reply: FastifyReply, token: string) {
  void reply.setCookie(REFRESH_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    secure: app.secureCookies,
    path: '/',
    maxAge: refresh.REFRESH_TOKEN_DAYS * 86_400,
  });
}

export function clearRefreshCookie(reply: FastifyReply) {
  void reply.clearCookie(REFRESH_COOKIE, { path: '/' });
}

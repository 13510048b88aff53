import type { FastifyInstance, FastifyReply } from 'fastify';
import type { TokenResponse } from '@parkit/contract';
import * as refresh from './refresh-token-repository.ts';
import { ACCESS_TOKEN_SECONDS } from './tokens.ts';

export const REFRESH_COOKIE = 'parkit_rt';

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

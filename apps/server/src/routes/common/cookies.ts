import cookie from '@fastify/cookie';
import type { FastifyInstance } from 'fastify';

/**
 * Cookies (the refresh token's, the device cookie) for the routes of this scope only: the sign-in
 * routes that read or set one (/token, Logout, a password change). @fastify/cookie parses the
 * Cookie header and writes Set-Cookie in hooks that run on every request of its scope; the rest
 * of the API reads no cookie (two fewer hooks on every other request).
 */
export function withCookies(app: FastifyInstance) {
  return app.register(cookie);
}

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ErrorResponse,
  LogoutRequest,
  MESSAGES,
  MessageResponse,
  RegisterRequest,
  RegisterResponse,
  ResetPasswordRequest,
  SendCodeRequest,
  TokenResponse,
} from '@parkit/contract';
import { badRequest, conflict, HttpError, notFound } from '../../../lib/http-error.ts';
import * as members from '../../../plugins/app/members/member-repository.ts';
import * as otp from '../../../plugins/app/auth/otp-repository.ts';
import * as refresh from '../../../plugins/app/auth/refresh-token-repository.ts';
import { hashPassword } from '../../../plugins/app/auth/passwords.ts';
import {
  clearRefreshCookie,
  enforceAddress,
  issueTokens,
  LIMITS,
  maskPhone,
  REFRESH_COOKIE,
  sendCode,
} from '../../../plugins/app/auth/sign-in.ts';

const CodeSent = z.object({ message: z.string(), PhoneNumber: z.string() });
/** A code-less password reset is allowed this long after signing in with a code. */
const OTP_RESET_WINDOW_SECONDS = 10 * 60;

/** Registration, sign-in codes, logout and password reset (DESIGN.md section 3). */
const signUpRoutes: FastifyPluginAsyncZod<{ clientId: () => Promise<number> }> = async (app, { clientId }) => {
  app.post(
    '/Register',
    {
      schema: {
        tags: ['Account'],
        summary: 'Create an account; a code goes to the phone',
        body: RegisterRequest,
        response: { 201: RegisterResponse, 400: ErrorResponse, 409: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (req, reply) => {
      await enforceAddress(app, LIMITS.registerAddress, req.ip);
      const body = req.body;
      const passwordHash = await hashPassword(body.Password);
      // Before the transaction: PGlite is one connection, so a query on app.db inside it deadlocks.
      const operatorId = await clientId();
      const created = await app.db.transaction(async (tx) => {
        const taken = await members.takenFields(tx, body);
        const errors = [
          taken.UserName && { field: 'UserName', message: MESSAGES.usernameTaken },
          taken.EmailAddress && { field: 'EmailAddress', message: MESSAGES.emailTaken },
          taken.PhoneNumber && { field: 'PhoneNumber', message: MESSAGES.phoneTaken },
        ].filter((e) => e !== false);
        if (errors.length > 0) throw new HttpError(409, errors[0]!.message, errors);
        const member = await members.create(tx, { ...body, passwordHash, clientId: operatorId });
        await sendCode(tx, member.phone, 'login', true);
        return member;
      }).catch((err: unknown) => {
        // Two registrations racing for one name: the unique index decides.
        if (isUniqueViolation(err)) throw conflict('UserName', MESSAGES.usernameTaken);
        throw err;
      });
      return reply.code(201).send({ message: MESSAGES.codeSent, PhoneNumber: maskPhone(created.phone) });
    },
  );

  app.post(
    '/SendOtp',
    {
      schema: {
        tags: ['Account'],
        summary: 'Send a sign-in code to a phone (the answer is the same whether or not it has an account)',
        body: SendCodeRequest,
        response: { 202: CodeSent, 400: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (req, reply) => {
      await enforceAddress(app, LIMITS.codeAddress, req.ip);
      const phone = req.body.PhoneNumber;
      const member = await members.findByPhone(app.db, phone);
      await sendCode(app.db, phone, 'login', member !== null);
      return reply.code(202).send({ message: MESSAGES.codeSent, PhoneNumber: maskPhone(phone) });
    },
  );

  app.post(
    '/Logout',
    {
      schema: {
        tags: ['Account'],
        summary: 'Revoke the refresh token (from the body or the cookie)',
        // Fastify hands a body-less POST to the validator as null, not undefined.
        body: LogoutRequest.nullish(),
        response: { 200: MessageResponse, 400: ErrorResponse },
      },
    },
    async (req, reply) => {
      const token = req.body?.refresh_token ?? req.cookies[REFRESH_COOKIE];
      if (token) await refresh.revoke(app.db, token);
      clearRefreshCookie(reply);
      return { message: MESSAGES.loggedOut };
    },
  );

  app.post(
    '/ForgotPassword',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Account'],
        summary: 'Send a password-reset code to the signed-in member’s phone',
        security: [{ bearer: [] }],
        response: { 202: CodeSent, 401: ErrorResponse, 429: ErrorResponse },
      },
    },
    async (req, reply) => {
      const member = await members.findById(app.db, req.member.memberId);
      if (!member) throw notFound();
      await sendCode(app.db, member.phone, 'reset', true);
      return reply.code(202).send({ message: MESSAGES.codeSent, PhoneNumber: maskPhone(member.phone) });
    },
  );

  app.post(
    '/ResetPassword',
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['Account'],
        summary: 'Set a new password with a code from /forgot, or right after signing in with a code',
        security: [{ bearer: [] }],
        body: ResetPasswordRequest,
        response: { 200: TokenResponse, 400: ErrorResponse, 401: ErrorResponse },
      },
    },
    async (req, reply) => {
      const member = await members.findById(app.db, req.member.memberId);
      if (!member) throw notFound();
      const { Code, NewPassword } = req.body;
      if (Code) {
        if (!(await otp.consume(app.db, member.phone, 'reset', Code))) throw badRequest('Code', MESSAGES.invalidCode);
      } else {
        const fresh = req.member.amr === 'otp' && Date.now() / 1000 - req.member.authTime < OTP_RESET_WINDOW_SECONDS;
        if (!fresh) throw badRequest('Code', MESSAGES.codeRequired);
      }
      await members.setPassword(app.db, member.id, await hashPassword(NewPassword));
      // Every other device is signed out; this one gets a fresh pair.
      await refresh.revokeAllOf(app.db, member.id);
      clearRefreshCookie(reply);
      return issueTokens(app, reply, member.id, req.member.amr);
    },
  );
};

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } } | null;
  return e?.code === '23505' || e?.cause?.code === '23505';
}

export default signUpRoutes;

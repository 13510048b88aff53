import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, MESSAGES, RegisterRequest, RegisterResponse } from '@parkit/contract';
import { pickLanguage } from '../../../lib/language.ts';
import { badRequest, conflict, HttpError } from '../../../lib/http-error.ts';
import * as members from '../../../members/index.ts';
import {
  hashPassword,
  isCommonPassword,
  OTP_TTL_SECONDS,
  maskPhone,
  sendCode,
  enforceAddress,
  LIMITS,
} from '../../../auth/index.ts';
import { isUniqueViolation } from '../../../db/errors.ts';

/** POST /api/Account/Register: a new account; a code goes to the phone (docs/product.md#sign-in). */
const registerRoutes: FastifyPluginAsyncZod<{ clientId: () => Promise<number> }> = async (app, { clientId }) => {
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
      if (isCommonPassword(body.Password)) throw badRequest('Password', MESSAGES.passwordCommon);
      const passwordHash = await hashPassword(body.Password);
      // Before the transaction: PGlite is one connection, so a query on app.db inside it deadlocks.
      const operatorId = await clientId();
      let released: number[] = [];
      const created = await app.db
        .transaction(async (tx) => {
          // An account never verified holds its names and phone only while its code lives.
          released = await members.releaseUnverified(tx, body, OTP_TTL_SECONDS);
          const taken = await members.takenFields(tx, body);
          const errors = [
            taken.UserName && { field: 'UserName', message: MESSAGES.usernameTaken },
            taken.EmailAddress && { field: 'EmailAddress', message: MESSAGES.emailTaken },
            taken.PhoneNumber && { field: 'PhoneNumber', message: MESSAGES.phoneTaken },
          ].filter((e) => e !== false);
          if (errors.length > 0) throw new HttpError(409, errors[0]!.message, errors);
          const member = await members.create(tx, { ...body, passwordHash, clientId: operatorId });
          await sendCode(
            tx,
            member.phone,
            'login',
            true,
            'registration',
            pickLanguage(undefined, req.headers['accept-language']),
          );
          return member;
        })
        .catch((err: unknown) => {
          // Two registrations racing for one name: the unique index decides.
          if (isUniqueViolation(err)) throw conflict('UserName', MESSAGES.usernameTaken);
          throw err;
        })
        .finally(() => {
          // After the commit (or a rollback, when forgetting is harmless): see session-cache.ts.
          for (const id of released) app.sessionCache.forget(id);
        });
      return reply.code(201).send({ message: MESSAGES.codeSent, PhoneNumber: maskPhone(created.phone) });
    },
  );
};

export default registerRoutes;

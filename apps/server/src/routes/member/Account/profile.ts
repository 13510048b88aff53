import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MESSAGES,
  UpdateAccountError,
  UpdateAccountRequest,
  UpdateAccountResponse,
  VEHICLE_MESSAGES,
} from '@parkit/contract';
import { badRequest, HttpError, notFound } from '../../../lib/http-error.ts';
import * as members from '../../../members/index.ts';

/** '787011234' and '78701-1234' are one ZIP+4; stored the USPS way, with the dash. */
const normalizeZip = (zip: string) => (zip.length === 5 ? zip : `${zip.slice(0, 5)}-${zip.slice(-4)}`);

/** Copies `message` into `Message` on a refusal (see UpdateAccountError in the contract). */
function withMessageField(status: number, payload: unknown): unknown {
  if (status < 400 || typeof payload !== 'object' || payload === null || !('message' in payload)) return payload;
  return { ...payload, Message: (payload as { message: unknown }).message };
}

/** POST /api/Account/Update: Edit Profile (docs/product.md#screens, #validation and #api-calls). */
const profileRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/Update',
    {
      // Runs for the error handler's answers too, so every refusal of this route has both fields.
      preSerialization: async (_req, reply, payload) => withMessageField(reply.statusCode, payload),
      schema: {
        tags: ['Account'],
        summary: 'Save the profile (address); username, email and phone are read-only',
        body: UpdateAccountRequest,
        response: {
          200: UpdateAccountResponse,
          400: UpdateAccountError,
          401: UpdateAccountError,
          403: UpdateAccountError,
          404: UpdateAccountError,
        },
      },
    },
    async (req) => {
      const id = req.member.memberId;
      const b = req.body;
      // The spec's payload carries the member id; a different one is someone else's profile.
      if (b.ID !== undefined && b.ID !== id) throw new HttpError(403, MESSAGES.forbidden);
      if (!(await app.referenceLists.get(app.db)).stateCodes.has(b.State))
        throw badRequest('State', MESSAGES.stateUnknown);
      // Username, EmailAddress, PhoneNumber and MinBalance are validated but never written here.
      const updated = await members.updateProfile(app.db, id, {
        ...(b.FirstName ? { firstName: b.FirstName } : {}),
        ...(b.LastName ? { lastName: b.LastName } : {}),
        addressLine1: b.AddressLine1,
        ...(b.AddressLine2 !== undefined ? { addressLine2: b.AddressLine2 } : {}),
        city: b.City,
        state: b.State,
        zipCode: normalizeZip(b.ZipCode.replace('-', '')),
      });
      if (!updated) throw notFound();
      return { ...members.toUserData(updated), message: VEHICLE_MESSAGES.userUpdated };
    },
  );
};

export default profileRoutes;

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AddVehicleRequest,
  DeleteVehicleRequest,
  ErrorResponse,
  MAX_VEHICLES,
  MessageResponse,
  UpdateVehicleRequest,
  Vehicle,
  VEHICLE_MESSAGES as M,
  VehicleList,
} from '@parkit/contract';
import type { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import { isUniqueViolation } from '../../../db/errors.ts';
import { conflict, HttpError, notFound } from '../../../lib/http-error.ts';
import { lockMember, lockMemberVehicleCount } from '../../../members/index.ts';
import { resolveVehicleRefs } from '../../../vehicles/index.ts';
import * as vehicles from '../../../vehicles/index.ts';

const member = { tags: ['Vehicle'] };
const refused = { 400: ErrorResponse, 404: ErrorResponse, 409: ErrorResponse };

/** Resolves the form's list names into rows, or answers 400 naming every field at fault. */
async function toInput(app: FastifyInstance, body: z.output<typeof AddVehicleRequest>): Promise<vehicles.VehicleInput> {
  const resolved = resolveVehicleRefs(await app.referenceLists.get(app.db), body);
  if (!resolved.ok) throw new HttpError(400, resolved.errors[0]!.message, resolved.errors);
  return { refs: resolved.refs, plate: body.PlateNumber, year: Number(body.VehicleYear) };
}

/** Runs a write; a unique-index refusal (two requests racing) is the same 409 as the check. */
async function plateSafe<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict('PlateNumber', M.plateTaken);
    throw err;
  }
}

/** The member's vehicles (docs/product.md#api-calls). Every write is checked against the member's own rows. */
const vehicleRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/List',
    {
      // One statement of one table: the session is checked before, from the cache; names from the lists in memory.
      schema: { ...member, summary: 'The member’s own vehicles, oldest first', response: { 200: VehicleList } },
    },
    async (req) => vehicles.listNamed(app.db, await app.referenceLists.get(app.db), req.member.memberId),
  );

  app.post(
    '/Add',
    {
      schema: {
        ...member,
        summary: `Add a vehicle (at most ${MAX_VEHICLES})`,
        body: AddVehicleRequest,
        response: { 201: Vehicle, ...refused },
      },
    },
    async (req, reply) => {
      const memberId = req.member.memberId;
      const input = await toInput(app, req.body);
      const created = await plateSafe(() =>
        app.db.transaction(async (tx) => {
          // The row lock makes count-then-insert one step for this member (no 11th vehicle by racing).
          const count = await lockMemberVehicleCount(tx, memberId);
          if (count === null) throw notFound();
          if (count >= MAX_VEHICLES) throw new HttpError(409, M.tooManyVehicles);
          if (await vehicles.plateTaken(tx, memberId, input.plate, input.refs.state))
            throw conflict('PlateNumber', M.plateTaken);
          return vehicles.insert(tx, memberId, input);
        }),
      );
      return reply.code(201).send(created);
    },
  );

  app.post(
    '/Update',
    {
      schema: {
        ...member,
        summary: 'Change one of the member’s vehicles',
        body: UpdateVehicleRequest,
        response: { 200: Vehicle, ...refused },
      },
    },
    async (req) => {
      const memberId = req.member.memberId;
      const vehicleId = req.body.VehicleId;
      const input = await toInput(app, req.body);
      return plateSafe(() =>
        app.db.transaction(async (tx) => {
          if (!(await lockMember(tx, memberId))) throw notFound();
          // Another member's id is 'not found', never 'forbidden': it must not reveal the vehicle.
          if (!(await vehicles.findOwned(tx, memberId, vehicleId))) throw notFound(M.vehicleNotFound);
          if (await vehicles.plateTaken(tx, memberId, input.plate, input.refs.state, vehicleId)) {
            throw conflict('PlateNumber', M.plateTaken);
          }
          const updated = await vehicles.update(tx, memberId, vehicleId, input);
          if (!updated) throw notFound(M.vehicleNotFound);
          return updated;
        }),
      );
    },
  );

  app.post(
    '/Delete',
    {
      schema: {
        ...member,
        summary: 'Remove one of the member’s vehicles',
        body: DeleteVehicleRequest,
        response: { 200: MessageResponse, ...refused },
      },
    },
    async (req) => {
      if (!(await vehicles.remove(app.db, req.member.memberId, req.body.VehicleId))) throw notFound(M.vehicleNotFound);
      return { message: M.vehicleDeleted };
    },
  );
};

export default vehicleRoutes;

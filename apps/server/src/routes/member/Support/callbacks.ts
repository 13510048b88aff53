import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CallBack,
  CallBackList,
  CallBackRequest,
  ErrorResponse,
  MAX_OPEN_CALLBACKS,
  SUPPORT_MESSAGES as M,
} from '@parkit/contract';
import { badRequest, conflict, HttpError, notFound } from '../../../lib/http-error.ts';
import { lockMember } from '../../../members/index.ts';
import { isUniqueViolation } from '../../../db/errors.ts';
import * as callBacks from '../../../support/index.ts';
import { checkSlot, type HoursSetting } from '../../../support/index.ts';
import { limitMember, member, SUPPORT_LIMITS } from '../../common/Support/common.ts';

/** Request call back (docs/product.md#screens): stored, at most 3 open per member, one per slot. */
const callBackRoutes: FastifyPluginAsyncZod<{ hours: HoursSetting }> = async (app, { hours }) => {
  app.get(
    '/CallBacks',
    {
      schema: {
        ...member,
        summary: 'The member’s call-back requests and their status',
        response: { 200: CallBackList },
      },
    },
    async (req) => callBacks.listByMember(app.db, req.member.memberId),
  );

  app.post(
    '/CallBack',
    {
      schema: {
        ...member,
        summary: 'Ask support to call back at a slot within support hours',
        body: CallBackRequest,
        response: { 201: CallBack, 404: ErrorResponse, 409: ErrorResponse },
      },
    },
    async (req, reply) => {
      const memberId = req.member.memberId;
      const { Phone, Date: date, Time: time } = req.body;
      const slot = checkSlot(date, time, hours);
      if (!slot.ok) throw badRequest(slot.field, slot.message);
      await limitMember(app, SUPPORT_LIMITS.callBack, memberId);
      let created;
      try {
        created = await app.db.transaction(async (tx) => {
          // The member's row lock makes count-then-insert one step (no 4th open request by racing).
          if (!(await lockMember(tx, memberId))) throw notFound();
          if (await callBacks.slotTaken(tx, memberId, slot.at)) throw conflict('Time', M.slotTaken);
          if ((await callBacks.countOpen(tx, memberId)) >= MAX_OPEN_CALLBACKS) throw new HttpError(409, M.tooManyOpen);
          return callBacks.insert(tx, memberId, { phone: Phone, date, time, at: slot.at });
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw conflict('Time', M.slotTaken);
        throw err;
      }
      await app.supportBus.publish({ k: 'callback', memberId, callBackId: created.CallBackId });
      return reply.code(201).send(created);
    },
  );
};

export default callBackRoutes;

import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AcceptInviteRequest, OperatorMembership } from '@parkit/contract';
import { acceptInvite } from '../../../operators/index.ts';

/**
 * An invitation to an operator's team (operators/README.md): the member whose phone or e-mail it
 * went to enters its code and joins. A member route: the invitee works for no operator yet.
 */
const operatorInviteRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/OperatorInvite',
    {
      schema: {
        tags: ['Account'],
        summary: "Accept an invitation to an operator's team with its code (sent to this account's phone or e-mail)",
        body: AcceptInviteRequest,
        response: { 200: OperatorMembership },
      },
    },
    async (req) => acceptInvite(app.db, req.member.memberId, req.body.Code),
  );
};

export default operatorInviteRoutes;

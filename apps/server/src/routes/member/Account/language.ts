import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ChangeLanguageRequest, ErrorResponse } from '@parkit/contract';
import { changeMemberLanguage } from '../../../infra/recipient-language.ts';

/** The app's language, saved when the member changes it (docs/conventions.md#the-server). */
const languageRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/Language',
    {
      schema: {
        tags: ['Account'],
        security: [{ bearer: [] }],
        summary: 'Save the app’s language: the member’s texts and notifications are written in it from then on',
        body: ChangeLanguageRequest,
        response: { 200: ChangeLanguageRequest, 400: ErrorResponse },
      },
    },
    async (req) => {
      await changeMemberLanguage(app.db, req.member.memberId, req.body.Language);
      return { Language: req.body.Language };
    },
  );
};

export default languageRoutes;

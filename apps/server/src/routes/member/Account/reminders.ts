import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ErrorResponse, ReminderSettings, UpdateReminderSettingsRequest } from '@parkit/contract';
import { getReminderSettings, saveReminderSettings } from '../../../members/index.ts';

const schemaBase = { tags: ['Account'], security: [{ bearer: [] }] };

/** When the reminder before a session's end comes, and on which channels (docs/product.md#reminders). */
const reminderRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/Reminders',
    {
      schema: {
        ...schemaBase,
        summary: 'The member’s reminder settings (10 minutes before the end, by SMS, until saved)',
        response: { 200: ReminderSettings },
      },
    },
    async (req) => getReminderSettings(app.db, req.member.memberId),
  );

  app.post(
    '/Reminders',
    {
      schema: {
        ...schemaBase,
        summary: 'Save any of the reminder settings; the ones not sent keep their values',
        body: UpdateReminderSettingsRequest,
        response: { 200: ReminderSettings, 400: ErrorResponse },
      },
    },
    async (req) => saveReminderSettings(app.db, req.member.memberId, req.body),
  );
};

export default reminderRoutes;

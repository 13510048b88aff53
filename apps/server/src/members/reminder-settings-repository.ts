import { eq, sql } from 'drizzle-orm';
import type { ReminderMinutes, ReminderSettings, UpdateReminderSettingsRequest } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { reminderSettings } from '../db/schema/index.ts';

type Row = typeof reminderSettings.$inferSelect;

/** A member without a saved row: 10 minutes before the end, by SMS only (docs/product.md#reminders). */
export const REMINDER_DEFAULTS = { minutesBefore: 10, push: false, sms: true } as const;

const toSettings = (r: Pick<Row, keyof typeof REMINDER_DEFAULTS>): ReminderSettings => ({
  ReminderMinutes: r.minutesBefore as ReminderMinutes,
  PushReminders: r.push,
  SmsReminders: r.sms,
});

export async function getReminderSettings(db: Executor, memberId: number): Promise<ReminderSettings> {
  const [row] = await db.select().from(reminderSettings).where(eq(reminderSettings.memberId, memberId)).limit(1);
  return toSettings(row ?? REMINDER_DEFAULTS);
}

/** Saves what the request names and keeps the rest; one upsert, so two changes at once both land. */
export async function saveReminderSettings(
  db: Executor,
  memberId: number,
  o: UpdateReminderSettingsRequest,
): Promise<ReminderSettings> {
  const changes: Partial<Row> = {};
  if (o.ReminderMinutes !== undefined) changes.minutesBefore = o.ReminderMinutes;
  if (o.PushReminders !== undefined) changes.push = o.PushReminders;
  if (o.SmsReminders !== undefined) changes.sms = o.SmsReminders;
  const [row] = await db
    .insert(reminderSettings)
    .values({ memberId, ...changes })
    .onConflictDoUpdate({ target: reminderSettings.memberId, set: { ...changes, updatedAt: sql`now()` } })
    .returning();
  if (!row) throw new Error('upsert returned no row');
  return toSettings(row);
}

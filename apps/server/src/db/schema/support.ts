import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { members } from './members.ts';

/** Members who answer support (issue 13). Created by `npm run support:agent`. */
export const supportAgents = pgTable('support_agents', {
  memberId: integer('member_id')
    .primaryKey()
    .references(() => members.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Request call back (spec section 2): one row per request; closed by an agent. */
export const supportCallBacks = pgTable(
  'support_callbacks',
  {
    id: serial('id').primaryKey(),
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    phone: text('phone').notNull(),
    /** The slot as the driver chose it, in the support time zone. */
    slotDate: text('slot_date').notNull(),
    slotTime: text('slot_time').notNull(),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }).notNull(),
    status: text('status').notNull().default('open'),
    closedBy: integer('closed_by').references(() => members.id, { onDelete: 'set null' }),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('support_callbacks_status_check', sql`${t.status} in ('open', 'called', 'no_answer')`),
    // A duplicate slot is refused even when two requests race.
    uniqueIndex('support_callbacks_open_slot_key').on(t.memberId, t.scheduledAt).where(sql`${t.status} = 'open'`),
    index('support_callbacks_queue_idx').on(t.status, t.scheduledAt),
  ],
);

/** Uploaded files; the bytes live under DATA_DIR/support-attachments, outside the web root. */
export const supportAttachments = pgTable(
  'support_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The conversation (member) it belongs to. */
    memberId: integer('member_id')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    uploadedBy: integer('uploaded_by')
      .notNull()
      .references(() => members.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check('support_attachments_size_check', sql`${t.size} > 0 and ${t.size} <= 5242880`)],
);

/** One conversation per member: the chat with support. */
export const supportConversations = pgTable('support_conversations', {
  memberId: integer('member_id')
    .primaryKey()
    .references(() => members.id, { onDelete: 'cascade' }),
  lastMessageAt: timestamp('last_message_at', { withTimezone: true }).notNull().defaultNow(),
  /** The newest member message an agent has read (unread counts). */
  agentReadId: integer('agent_read_id').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const supportMessages = pgTable(
  'support_messages',
  {
    id: serial('id').primaryKey(),
    memberId: integer('member_id')
      .notNull()
      .references(() => supportConversations.memberId, { onDelete: 'cascade' }),
    /** user (the driver), agent, or greeting (the server's opening message). */
    sender: text('sender').notNull(),
    agentId: integer('agent_id').references(() => members.id, { onDelete: 'set null' }),
    text: text('text').notNull().default(''),
    attachmentId: uuid('attachment_id').references(() => supportAttachments.id, { onDelete: 'set null' }),
    clientMessageId: text('client_message_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    check('support_messages_sender_check', sql`${t.sender} in ('user', 'agent', 'greeting')`),
    check('support_messages_text_check', sql`char_length(${t.text}) <= 2000`),
    // A retried send with the same ClientMessageId is one message.
    uniqueIndex('support_messages_client_id_key').on(t.memberId, t.clientMessageId),
    index('support_messages_member_idx').on(t.memberId, t.id),
  ],
);

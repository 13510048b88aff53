import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt, moment, ref, serialId } from './columns.ts';
import { memberRef, members } from './members.ts';

/**
 * The agent who closed a call back or sent a reply: null once that member is deleted, so the
 * driver's record stays.
 */
function agentRef(name: string) {
  return integer(name).references(() => members.id, { onDelete: 'set null' });
}

/** Members who answer support. Created by `npm run support:agent`. */
export const supportAgents = pgTable('support_agents', {
  memberId: memberRef().primaryKey(),
  createdAt: createdAt(),
});

/** Request call back (docs/product.md#screens): one row per request; closed by an agent. */
export const supportCallBacks = pgTable(
  'support_callbacks',
  {
    id: serialId(),
    memberId: memberRef(),
    phone: text('phone').notNull(),
    /** The slot as the driver chose it, in the support time zone. */
    slotDate: text('slot_date').notNull(),
    slotTime: text('slot_time').notNull(),
    scheduledAt: moment('scheduled_at').notNull(),
    status: text('status').notNull().default('open'),
    closedBy: agentRef('closed_by'),
    closedAt: moment('closed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    check('support_callbacks_status_check', sql`${t.status} in ('open', 'called', 'no_answer')`),
    // A duplicate slot is refused even when two requests race.
    uniqueIndex('support_callbacks_open_slot_key')
      .on(t.memberId, t.scheduledAt)
      .where(sql`${t.status} = 'open'`),
    index('support_callbacks_queue_idx').on(t.status, t.scheduledAt),
  ],
);

/** Uploaded files; the bytes live under DATA_DIR/support-attachments, outside the web root. */
export const supportAttachments = pgTable(
  'support_attachments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The conversation (member) it belongs to. */
    memberId: memberRef(),
    uploadedBy: memberRef('uploaded_by'),
    fileName: text('file_name').notNull(),
    contentType: text('content_type').notNull(),
    size: integer('size').notNull(),
    createdAt: createdAt(),
  },
  (t) => [check('support_attachments_size_check', sql`${t.size} > 0 and ${t.size} <= 5242880`)],
);

/** One conversation per member: the chat with support. */
export const supportConversations = pgTable('support_conversations', {
  memberId: memberRef().primaryKey(),
  lastMessageAt: moment('last_message_at').notNull().defaultNow(),
  /** The newest member message an agent has read (unread counts). */
  agentReadId: integer('agent_read_id').notNull().default(0),
  createdAt: createdAt(),
});

export const supportMessages = pgTable(
  'support_messages',
  {
    id: serialId(),
    memberId: ref('member_id', () => supportConversations.memberId, 'cascade'),
    /** user (the driver), agent, or greeting (the server's opening message). */
    sender: text('sender').notNull(),
    agentId: agentRef('agent_id'),
    text: text('text').notNull().default(''),
    attachmentId: uuid('attachment_id').references(() => supportAttachments.id, { onDelete: 'set null' }),
    clientMessageId: text('client_message_id'),
    createdAt: createdAt(),
  },
  (t) => [
    check('support_messages_sender_check', sql`${t.sender} in ('user', 'agent', 'greeting')`),
    check('support_messages_text_check', sql`char_length(${t.text}) <= 2000`),
    // A retried send with the same ClientMessageId is one message.
    uniqueIndex('support_messages_client_id_key').on(t.memberId, t.clientMessageId),
    index('support_messages_member_idx').on(t.memberId, t.id),
  ],
);

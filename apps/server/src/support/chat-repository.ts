import { and, asc, desc, eq, gt, lt, sql } from 'drizzle-orm';
import type { ChatMessage, Conversation } from '@parkit/contract';
import { queryRows, type Db, type Executor } from '../db/client.ts';
import { supportAttachments, supportConversations, supportMessages } from '../db/schema/index.ts';

/** The server's opening message (the spec's placeholder opening messages, made real). */
export const GREETING = 'Hello! Welcome to ParkIt support. How can we help you today?';

const columns = {
  MessageId: supportMessages.id,
  MemberId: supportMessages.memberId,
  ClientMessageId: supportMessages.clientMessageId,
  sender: supportMessages.sender,
  Text: supportMessages.text,
  createdAt: supportMessages.createdAt,
  aId: supportAttachments.id,
  aName: supportAttachments.fileName,
  aType: supportAttachments.contentType,
  aSize: supportAttachments.size,
};

type Row = {
  MessageId: number;
  MemberId: number;
  ClientMessageId: string | null;
  sender: string;
  Text: string;
  createdAt: Date;
  aId: string | null;
  aName: string | null;
  aType: string | null;
  aSize: number | null;
};

const toMessage = ({ sender, createdAt, aId, aName, aType, aSize, ...r }: Row): ChatMessage => ({
  ...r,
  UserType: sender === 'user' ? 'user' : 'support',
  Greeting: sender === 'greeting',
  CreatedAt: new Date(createdAt).toISOString(),
  Attachment: aId ? { AttachmentId: aId, FileName: aName ?? '', ContentType: aType ?? '', Size: aSize ?? 0 } : null,
});

function select(db: Executor) {
  return db
    .select(columns)
    .from(supportMessages)
    .leftJoin(supportAttachments, eq(supportAttachments.id, supportMessages.attachmentId));
}

/**
 * Opens the member's conversation with the server's greeting the first time; returns the
 * greeting's id when it was just written (to publish it), else null.
 */
export async function ensureConversation(db: Executor, memberId: number): Promise<number | null> {
  const created = await db
    .insert(supportConversations)
    .values({ memberId })
    .onConflictDoNothing()
    .returning({ m: supportConversations.memberId });
  if (created.length === 0) return null;
  const [greeting] = await db
    .insert(supportMessages)
    .values({ memberId, sender: 'greeting', text: GREETING })
    .returning({ id: supportMessages.id });
  return greeting?.id ?? null;
}

/** A page of the conversation, oldest first: the newest `limit` before `before`, or all after `after`. */
export async function list(
  db: Executor,
  memberId: number,
  q: { before?: number | undefined; after?: number | undefined; limit: number },
): Promise<ChatMessage[]> {
  const where = and(
    eq(supportMessages.memberId, memberId),
    q.before !== undefined ? lt(supportMessages.id, q.before) : undefined,
    q.after !== undefined ? gt(supportMessages.id, q.after) : undefined,
  );
  if (q.after !== undefined) {
    const rows = await select(db).where(where).orderBy(asc(supportMessages.id)).limit(q.limit);
    return rows.map(toMessage);
  }
  const rows = await select(db).where(where).orderBy(desc(supportMessages.id)).limit(q.limit);
  return rows.reverse().map(toMessage);
}

export async function findMessage(db: Executor, messageId: number): Promise<ChatMessage | null> {
  const [row] = await select(db).where(eq(supportMessages.id, messageId)).limit(1);
  return row ? toMessage(row) : null;
}

export interface SendInput {
  text: string;
  attachmentId?: string | undefined;
  clientMessageId: string;
}

export type SendResult =
  { ok: true; message: ChatMessage; created: boolean; greetingId: number | null } | { ok: false; reason: 'attachment' };

/**
 * Stores a message once per ClientMessageId (a retry answers the first message). An attachment
 * must belong to this conversation.
 */
export async function send(
  db: Db,
  memberId: number,
  from: { sender: 'user' | 'agent'; agentId?: number },
  input: SendInput,
): Promise<SendResult> {
  return db.transaction(async (tx) => {
    // Checked before anything is written: a refused message leaves no trace (not even the greeting).
    if (input.attachmentId) {
      const [att] = await tx
        .select({ id: supportAttachments.id })
        .from(supportAttachments)
        .where(and(eq(supportAttachments.id, input.attachmentId), eq(supportAttachments.memberId, memberId)))
        .limit(1);
      if (!att) return { ok: false, reason: 'attachment' } as const;
    }
    const greetingId = await ensureConversation(tx, memberId);
    const inserted = await tx
      .insert(supportMessages)
      .values({
        memberId,
        sender: from.sender,
        agentId: from.agentId ?? null,
        text: input.text,
        attachmentId: input.attachmentId ?? null,
        clientMessageId: input.clientMessageId,
      })
      .onConflictDoNothing({ target: [supportMessages.memberId, supportMessages.clientMessageId] })
      .returning({ id: supportMessages.id });
    const id = inserted[0]?.id;
    if (id !== undefined) {
      await tx
        .update(supportConversations)
        .set({ lastMessageAt: sql`now()`, ...(from.sender === 'agent' ? { agentReadId: readUpToNow(memberId) } : {}) })
        .where(eq(supportConversations.memberId, memberId));
    }
    const [row] = await select(tx)
      .where(
        id !== undefined
          ? eq(supportMessages.id, id)
          : and(eq(supportMessages.memberId, memberId), eq(supportMessages.clientMessageId, input.clientMessageId)),
      )
      .limit(1);
    if (!row) throw new Error('message vanished');
    return { ok: true, message: toMessage(row), created: id !== undefined, greetingId } as const;
  });
}

/** The console's list: every conversation with a driver message, newest activity first. */
export async function conversations(db: Executor): Promise<Conversation[]> {
  const rows = await queryRows<{
    member_id: number;
    user_name: string;
    first_name: string;
    last_name: string;
    phone: string;
    last_message_at: Date | string;
    last_text: string | null;
    last_file: string | null;
    unread: number;
  }>(
    db,
    sql`select c.member_id, m.user_name, m.first_name, m.last_name, m.phone, c.last_message_at,
          (select coalesce(nullif(lm.text, ''), a.file_name) from support_messages lm
             left join support_attachments a on a.id = lm.attachment_id
             where lm.member_id = c.member_id order by lm.id desc limit 1) as last_text,
          null as last_file,
          (select count(*)::int from support_messages u where u.member_id = c.member_id and u.sender = 'user' and u.id > c.agent_read_id) as unread
        from support_conversations c join members m on m.id = c.member_id
        where exists (select 1 from support_messages s where s.member_id = c.member_id and s.sender = 'user')
        order by c.last_message_at desc, c.member_id desc
        limit 200`,
  );
  return rows.map((r) => ({
    MemberId: r.member_id,
    UserName: r.user_name,
    Name: `${r.first_name} ${r.last_name}`.trim(),
    Phone: r.phone,
    LastMessage: r.last_text ?? '',
    LastMessageAt: new Date(r.last_message_at).toISOString(),
    Unread: Number(r.unread),
  }));
}

export async function conversationExists(db: Executor, memberId: number): Promise<boolean> {
  const rows = await db
    .select({ m: supportConversations.memberId })
    .from(supportConversations)
    .where(eq(supportConversations.memberId, memberId))
    .limit(1);
  return rows.length > 0;
}

/** The conversation's agent_read_id once an agent has read it up to now (the driver's last message). */
const readUpToNow = (memberId: number) =>
  sql<number>`greatest(${supportConversations.agentReadId}, coalesce((select max(id) from support_messages where member_id = ${memberId} and sender = 'user'), 0))`;

/** An agent has read the conversation up to now. */
export async function markRead(db: Executor, memberId: number): Promise<void> {
  await db
    .update(supportConversations)
    .set({ agentReadId: readUpToNow(memberId) })
    .where(eq(supportConversations.memberId, memberId));
}

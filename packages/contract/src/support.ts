import { z } from 'zod';
import { WireId } from './vehicle.ts';

/** Support: call-back requests and chat (docs/product.md#screens, #stored-data, #validation). */
export const SUPPORT_MESSAGES = {
  // docs/product.md#validation, letter for letter.
  phoneRequired: 'Phone is Required',
  dateRequired: 'Date is Required',
  timeRequired: 'Time is Required',
  // Ours.
  phoneFormat: 'Enter a phone number of 10 or 11 digits',
  dateFormat: 'Choose a date',
  timeFormat: 'Choose a time',
  slotPast: 'Choose a time in the future',
  slotOutsideHours: 'Choose a time within support hours',
  slotTooFar: 'Choose a date within the next 30 days',
  slotTaken: 'You already asked for a call at this time',
  tooManyOpen: 'You can have at most 3 open call-back requests',
  callBackNotFound: 'Call-back request not found',
  callBackClosed: 'This call-back request is already closed',
  textTooLong: 'At most 2000 characters',
  textInvalid: 'Contains characters that are not allowed',
  textRequired: 'Type a message or attach a file',
  clientMessageIdRequired: 'ClientMessageId is required',
  attachmentNotFound: 'Attachment not found',
  fileRequired: 'Choose a file',
  fileTooLarge: 'The file is larger than 5 MB',
  fileType: 'Only images (PNG, JPEG, GIF, WebP) and PDF files can be sent',
  conversationNotFound: 'Conversation not found',
  tooManyMessages: 'You are sending messages too fast. Please wait a moment.',
  agentsOnly: 'Only support agents can open the console',
} as const;

export const MAX_OPEN_CALLBACKS = 3;
export const MAX_CHAT_TEXT = 2000;
export const MAX_ATTACHMENT_BYTES = 5 * 1024 * 1024;
/** How far ahead a call back can be booked. */
export const CALLBACK_MAX_DAYS = 30;
export const ATTACHMENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'] as const;

const M = SUPPORT_MESSAGES;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/** POST /api/Support/CallBack: the spec's call-back form (phone, date, time). */
export const CallBackRequest = z.object({
  Phone: z
    .string({ error: M.phoneRequired })
    .trim()
    .min(1, M.phoneRequired)
    .regex(/^\d{10,11}$/, M.phoneFormat),
  Date: z
    .string({ error: M.dateRequired })
    .trim()
    .min(1, M.dateRequired)
    .regex(/^\d{4}-\d{2}-\d{2}$/, M.dateFormat),
  Time: z
    .string({ error: M.timeRequired })
    .trim()
    .min(1, M.timeRequired)
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, M.timeFormat),
});
export type CallBackRequest = z.input<typeof CallBackRequest>;

export const CallBackStatus = z.enum(['open', 'called', 'no_answer']);
export type CallBackStatus = z.infer<typeof CallBackStatus>;

export const CallBack = z.object({
  CallBackId: z.number().int(),
  Phone: z.string(),
  Date: z.string(),
  Time: z.string(),
  /** The slot as an instant (ISO 8601). */
  ScheduledAt: z.string(),
  Status: CallBackStatus,
  CreatedAt: z.string(),
});
export type CallBack = z.infer<typeof CallBack>;
export const CallBackList = z.array(CallBack);

/** GET /api/Support/Hours: the setting the time picker offers slots from. */
export const SupportHours = z.object({
  Open: z.string(),
  Close: z.string(),
  TimeZone: z.string(),
  SlotMinutes: z.number().int(),
  MaxDays: z.number().int(),
});
export type SupportHours = z.infer<typeof SupportHours>;

export const Attachment = z.object({
  AttachmentId: z.string(),
  FileName: z.string(),
  ContentType: z.string(),
  Size: z.number().int(),
});
export type Attachment = z.infer<typeof Attachment>;

/** The chat message of docs/product.md#stored-data (sender, text, time, userType), stored. */
export const ChatMessage = z.object({
  MessageId: z.number().int(),
  MemberId: z.number().int(),
  ClientMessageId: z.string().nullable(),
  /** support (an agent or the greeting) or user (the driver). */
  UserType: z.enum(['support', 'user']),
  /** True for the server's greeting (translated by the app). */
  Greeting: z.boolean(),
  Text: z.string(),
  Attachment: Attachment.nullable(),
  CreatedAt: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessage>;
export const ChatMessageList = z.array(ChatMessage);

export const ChatMessagesQuery = z.object({
  before: WireId.optional(),
  /** The last message id the client has (0 for none): only newer ones come back. */
  after: z
    .string({ error: 'Must be a number' })
    .regex(/^\d{1,10}$/, 'Must be a number')
    .transform(Number)
    .pipe(z.number().int().max(2_147_483_647, 'Too large'))
    .optional(),
  limit: z.coerce.number({ error: 'Must be a number' }).int().min(1).max(100).default(50),
});

export const ClientMessageId = z
  .string({ error: M.clientMessageIdRequired })
  .trim()
  .regex(/^[A-Za-z0-9-]{8,64}$/, M.clientMessageIdRequired);

export const ChatText = z
  .string({ error: M.textRequired })
  .max(MAX_CHAT_TEXT, M.textTooLong)
  .refine((t) => !CONTROL.test(t), M.textInvalid)
  .transform((t) => t.trim());

/** POST /api/Support/Chat/Send; the agent's reply has the same body. */
export const SendChatRequest = z
  .object({
    Text: ChatText.default(''),
    AttachmentId: z.string().uuid(M.attachmentNotFound).optional(),
    ClientMessageId,
  })
  .refine((b) => b.Text.length > 0 || b.AttachmentId !== undefined, { message: M.textRequired, path: ['Text'] });
export type SendChatRequest = z.input<typeof SendChatRequest>;

/** Live events (server-sent events on /api/Support/Chat/Events and /api/Support/Console/Events). */
export type SupportEvent =
  | { type: 'message'; message: ChatMessage }
  | { type: 'callback'; callBack: CallBack & { MemberId: number } }
  | { type: 'read'; memberId: number };

// Console (agents only).
export const ConsoleMe = z.object({ MemberId: z.number().int(), UserName: z.string() });
/** The driver a conversation or a call back is from, as the console names them (Name: first and last). */
const ConsoleMember = { MemberId: z.number().int(), UserName: z.string(), Name: z.string() };
export const Conversation = z.object({
  ...ConsoleMember,
  Phone: z.string(),
  LastMessage: z.string(),
  LastMessageAt: z.string(),
  Unread: z.number().int(),
});
export type Conversation = z.infer<typeof Conversation>;
export const ConversationList = z.array(Conversation);
export const ConsoleCallBack = CallBack.extend(ConsoleMember);
export type ConsoleCallBack = z.infer<typeof ConsoleCallBack>;
export const ConsoleCallBackList = z.array(ConsoleCallBack);
export const CloseCallBackRequest = z.object({
  Status: z.enum(['called', 'no_answer'], { error: 'Status must be called or no_answer' }),
});
export const MemberParams = z.object({ memberId: WireId });
export const CallBackParams = z.object({ callBackId: WireId });
export const AttachmentParams = z.object({ attachmentId: z.string().uuid(M.attachmentNotFound) });

import { describe, expect, it } from 'vitest';
import {
  AttachmentParams,
  CallBackParams,
  CallBackRequest,
  ChatMessagesQuery,
  ClientMessageId,
  CloseCallBackRequest,
  MAX_ATTACHMENT_BYTES,
  MemberParams,
  SendChatRequest,
  SUPPORT_MESSAGES as S,
} from './index.ts';
import { messages, expectMessages, UUID } from './test-messages.ts';

// The support request schemas with the spec's messages (docs/product.md#validation) and ours.

describe('Request a call back (docs/product.md#validation)', () => {
  const ok = { Phone: '5551234567', Date: '2026-11-24', Time: '09:30' };
  it('the spec messages for what is missing', () => {
    expect(messages(CallBackRequest, {})).toEqual({
      Phone: 'Phone is Required',
      Date: 'Date is Required',
      Time: 'Time is Required',
    });
    expect(messages(CallBackRequest, { Phone: ' ', Date: ' ', Time: ' ' })).toEqual({
      Phone: S.phoneRequired,
      Date: S.dateRequired,
      Time: S.timeRequired,
    });
  });
  it('a phone of 10 or 11 digits, a yyyy-mm-dd date, a 24-hour hh:mm time; trimmed', () => {
    expect(CallBackRequest.parse({ Phone: ' 5551234567 ', Date: ' 2026-11-24 ', Time: ' 09:30 ' })).toEqual(ok);
    expect(messages(CallBackRequest, { ...ok, Phone: '55512345678' })).toEqual({});
    for (const Phone of ['555123456', '555123456789', '555-123-4567'])
      expect(messages(CallBackRequest, { ...ok, Phone }), Phone).toEqual({
        Phone: 'Enter a phone number of 10 or 11 digits',
      });
    for (const Date of ['24/11/2026', '2026-1-24', 'x2026-11-24', '2026-11-24x'])
      expect(messages(CallBackRequest, { ...ok, Date }), Date).toEqual({ Date: 'Choose a date' });
    for (const Time of ['24:00', '9:30', '12:60', '12:30x', 'x12:30'])
      expect(messages(CallBackRequest, { ...ok, Time }), Time).toEqual({ Time: 'Choose a time' });
    for (const Time of ['00:00', '19:59', '23:59'])
      expect(messages(CallBackRequest, { ...ok, Time }), Time).toEqual({});
  });
});

describe('chat', () => {
  const id = 'msg-0001';
  it('a text, trimmed, or an attachment', () => {
    expect(SendChatRequest.parse({ Text: ' hello ', ClientMessageId: id })).toEqual({
      Text: 'hello',
      ClientMessageId: id,
    });
    expect(SendChatRequest.parse({ AttachmentId: UUID, ClientMessageId: id })).toEqual({
      Text: '',
      AttachmentId: UUID,
      ClientMessageId: id,
    });
    expect(messages(SendChatRequest, { ClientMessageId: id })).toEqual({ Text: 'Type a message or attach a file' });
    expect(messages(SendChatRequest, { Text: '   ', ClientMessageId: id })).toEqual({ Text: S.textRequired });
  });
  it('at most 2000 characters, no control characters', () => {
    expect(messages(SendChatRequest, { Text: 'x'.repeat(2001), ClientMessageId: id })).toEqual({
      Text: 'At most 2000 characters',
    });
    expect(messages(SendChatRequest, { Text: 'x'.repeat(2000), ClientMessageId: id })).toEqual({});
    for (const c of ['\u0000', '\u001f', '\u007f', '\u009f'])
      expect(messages(SendChatRequest, { Text: `a${c}b`, ClientMessageId: id }), JSON.stringify(c)).toEqual({
        Text: 'Contains characters that are not allowed',
      });
    expect(messages(SendChatRequest, { Text: 'नमस्ते €', ClientMessageId: id })).toEqual({});
    expect(messages(SendChatRequest, { Text: 5, ClientMessageId: id })).toEqual({ Text: S.textRequired });
  });
  it('an attachment is named by a UUID', () => {
    expect(messages(SendChatRequest, { AttachmentId: 'x', ClientMessageId: id })).toMatchObject({
      AttachmentId: 'Attachment not found',
    });
    expect(messages(AttachmentParams, { attachmentId: 'x' })).toEqual({ attachmentId: S.attachmentNotFound });
    expect(AttachmentParams.parse({ attachmentId: UUID })).toEqual({ attachmentId: UUID });
  });
  it('the client message id: 8 to 64 letters, digits or dashes, trimmed', () => {
    expect(ClientMessageId.parse(' abcdefgh ')).toBe('abcdefgh');
    expect(ClientMessageId.parse('a'.repeat(64))).toBe('a'.repeat(64));
    for (const bad of ['abcdefg', 'a'.repeat(65), 'abcd efgh', 'abcd_efgh', undefined])
      expect(messages(ClientMessageId, bad)['(root)'], String(bad)).toBe('ClientMessageId is required');
  });
  it('the page: before an id, after an id (0 for none), 50 messages unless asked for 1 to 100', () => {
    expect(ChatMessagesQuery.parse({ before: '12', after: '0' })).toEqual({ before: 12, after: 0, limit: 50 });
    expect(ChatMessagesQuery.parse({ limit: '100' })).toEqual({ limit: 100 });
    expect(ChatMessagesQuery.parse({ limit: '1' })).toEqual({ limit: 1 });
    for (const limit of ['0', '101', '1.5']) expect(ChatMessagesQuery.safeParse({ limit }).success, limit).toBe(false);
    expect(messages(ChatMessagesQuery, { limit: 'x' })).toEqual({ limit: 'Must be a number' });
    for (const after of ['x', '-1', '1.5', '12345678901'])
      expect(messages(ChatMessagesQuery, { after }), after).toEqual({ after: 'Must be a number' });
    expectMessages(ChatMessagesQuery, [
      [{ after: '2147483648' }, { after: 'Too large' }],
      [{ after: '2147483647' }, {}],
      [{ after: 3 }, { after: 'Must be a number' }],
    ]);
  });
});

describe('attachments', () => {
  it('at most 5 MB (the message says so), images and PDF', () => {
    expect(MAX_ATTACHMENT_BYTES).toBe(5_242_880);
    expect(S.fileTooLarge).toBe('The file is larger than 5 MB');
  });
});

describe('the console', () => {
  it('closes a call back as called or no_answer', () => {
    expect(CloseCallBackRequest.parse({ Status: 'called' })).toEqual({ Status: 'called' });
    expect(CloseCallBackRequest.parse({ Status: 'no_answer' })).toEqual({ Status: 'no_answer' });
    expect(messages(CloseCallBackRequest, { Status: 'open' })).toEqual({
      Status: 'Status must be called or no_answer',
    });
  });
  it('ids in the path', () => {
    expect(MemberParams.parse({ memberId: '3' })).toEqual({ memberId: 3 });
    expect(CallBackParams.parse({ callBackId: 4 })).toEqual({ callBackId: 4 });
    expect(messages(MemberParams, { memberId: 'x' })).toEqual({ memberId: 'Must be a number' });
  });
});

import { useCallback, useEffect, useRef, useState } from 'react';
import type { Attachment, ChatMessage } from '@parkit/contract';
import type { Draft } from '../components/chat-composer.tsx';
import type { PendingMessage } from '../components/message-list.tsx';
import { newClientMessageId } from '../lib/client-id.ts';

/**
 * Optimistic sending: a message shows at once as 'You', is confirmed by the server,
 * or is marked failed and can be retried with the same ClientMessageId: never lost, never doubled.
 */
export function useChatSender(
  send: (body: { Text: string; AttachmentId?: string; ClientMessageId: string }) => Promise<ChatMessage>,
  upload: (file: File) => Promise<Attachment>,
  onSent: (m: ChatMessage) => void,
) {
  const [pending, setPending] = useState<PendingMessage[]>([]);
  const previews = useRef<string[]>([]);
  useEffect(() => () => previews.current.forEach((u) => URL.revokeObjectURL(u)), []);

  const patch = (id: string, change: Partial<PendingMessage>) =>
    setPending((list) => list.map((p) => (p.ClientMessageId === id ? { ...p, ...change } : p)));

  const deliver = useCallback(
    async (p: PendingMessage) => {
      patch(p.ClientMessageId, { status: 'sending' });
      try {
        let attachmentId = p.AttachmentId;
        if (p.file && !attachmentId) {
          attachmentId = (await upload(p.file)).AttachmentId;
          patch(p.ClientMessageId, { AttachmentId: attachmentId });
        }
        const msg = await send({
          Text: p.Text,
          ClientMessageId: p.ClientMessageId,
          ...(attachmentId ? { AttachmentId: attachmentId } : {}),
        });
        onSent(msg);
        setPending((list) => list.filter((x) => x.ClientMessageId !== p.ClientMessageId));
      } catch {
        patch(p.ClientMessageId, { status: 'failed' });
      }
    },
    [send, upload, onSent],
  );

  const submit = (d: Draft) => {
    const preview = d.file && d.file.type.startsWith('image/') ? URL.createObjectURL(d.file) : undefined;
    if (preview) previews.current.push(preview);
    const p: PendingMessage = {
      ClientMessageId: newClientMessageId(),
      Text: d.text,
      file: d.file ?? undefined,
      preview,
      status: 'sending',
      CreatedAt: new Date().toISOString(),
    };
    setPending((list) => [...list, p]);
    void deliver(p);
  };

  return { pending, submit, retry: (p: PendingMessage) => void deliver(p) };
}

import { useRef, useState } from 'react';
import { z } from 'zod';
import Paperclip from 'lucide-react/icons/paperclip';
import SendHorizontal from 'lucide-react/icons/send-horizontal';
import X from 'lucide-react/icons/x';
import { useTranslation } from '../../../lib/i18n.ts';
import { toast } from '../../../lib/toasts.tsx';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { ATTACHMENT_TYPES, MAX_ATTACHMENT_BYTES, MAX_CHAT_TEXT, SUPPORT_MESSAGES } from '@parkit/contract';

const TextForm = z.object({ text: z.string().trim() });

export interface Draft {
  text: string;
  file: File | null;
}

/**
 * The input with 'Ask your question...', the file picker and the send button (docs/product.md#screens).
 * Enter sends (the form submits); blank or whitespace-only text without a file is not sent.
 */
export function ChatComposer({ onSend, allowFiles = true }: { onSend: (d: Draft) => void; allowFiles?: boolean }) {
  const { t } = useTranslation();
  const { register, handleSubmit, reset } = useSchemaForm<z.input<typeof TextForm>, z.output<typeof TextForm>>(
    TextForm,
    { text: '' },
  );
  // The picked file is not typed: it is the picker's, kept beside the form.
  const [file, setFile] = useState<File | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const send = ({ text }: z.output<typeof TextForm>) => {
    if (text === '' && !file) return;
    onSend({ text, file });
    reset();
    setFile(null);
    if (fileInput.current) fileInput.current.value = '';
  };

  const pick = (f: File | undefined) => {
    if (!f) return;
    if (f.size > MAX_ATTACHMENT_BYTES) {
      toast.error(t(SUPPORT_MESSAGES.fileTooLarge));
      if (fileInput.current) fileInput.current.value = '';
      return;
    }
    setFile(f);
  };

  return (
    <form onSubmit={(e) => void handleSubmit(send)(e)} className="flex flex-col gap-2">
      {file && (
        <div className="flex items-center gap-2 self-start rounded-xl bg-slate-100 px-3 py-1.5 text-sm">
          <Paperclip className="size-4 shrink-0" aria-hidden />
          <span className="max-w-56 truncate">{file.name}</span>
          <button
            type="button"
            onClick={() => {
              setFile(null);
              if (fileInput.current) fileInput.current.value = '';
            }}
            aria-label={t('Remove {{name}}', { name: file.name })}
            className="grid size-8 place-items-center rounded-full hover:bg-slate-200"
          >
            <X className="size-4" aria-hidden />
          </button>
        </div>
      )}
      <div className="flex items-center gap-2">
        {allowFiles && (
          <>
            <input
              ref={fileInput}
              id="chat-file"
              type="file"
              accept={ATTACHMENT_TYPES.join(',')}
              className="sr-only"
              aria-label={t('Attach a file')}
              onChange={(e) => pick(e.target.files?.[0])}
            />
            <label
              htmlFor="chat-file"
              title={t('Attach a file')}
              className="grid size-11 shrink-0 cursor-pointer place-items-center rounded-full text-brand-800 hover:bg-brand-50"
            >
              <Paperclip className="size-5" aria-hidden />
            </label>
          </>
        )}
        <input
          type="text"
          {...register('text')}
          placeholder={t('Ask your question...')}
          aria-label={t('Ask your question...')}
          maxLength={MAX_CHAT_TEXT}
          autoComplete="off"
          className="min-h-11 min-w-0 flex-1 rounded-full border border-slate-300 bg-white px-4 text-base"
        />
        <button
          type="submit"
          aria-label={t('Send')}
          className="grid size-11 shrink-0 place-items-center rounded-full bg-brand-700 text-white hover:bg-brand-800"
        >
          <SendHorizontal className="size-5" aria-hidden />
        </button>
      </div>
    </form>
  );
}

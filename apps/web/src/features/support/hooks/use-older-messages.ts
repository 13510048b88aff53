import { useState } from 'react';
import type { ChatMessage } from '@parkit/contract';
import { api } from '../../../lib/api-client.ts';

const PAGE = 50;

/**
 * Earlier pages of a conversation (?before=): the screen loads the newest 50 and the driver or
 * agent asks for more. A conversation starts with the greeting, so reaching it means the start.
 */
export function useOlderMessages(url: string, newest: ChatMessage[] | undefined) {
  const [older, setOlder] = useState<ChatMessage[]>([]);
  const [loading, setLoading] = useState(false);
  const [failed, setFailed] = useState(false);
  const first = older[0] ?? newest?.[0];
  const hasMore = Boolean(first && !first.Greeting && (older.length > 0 || (newest?.length ?? 0) >= PAGE));

  const loadMore = async () => {
    if (!first) return;
    setLoading(true);
    setFailed(false);
    try {
      const page = await api.get<ChatMessage[]>(`${url}?before=${first.MessageId}&limit=${PAGE}`, { showError: false });
      setOlder((list) => [...page, ...list]);
    } catch {
      setFailed(true);
    } finally {
      setLoading(false);
    }
  };

  const all = newest ? [...older.filter((o) => !newest.some((n) => n.MessageId === o.MessageId)), ...newest] : [];
  return { all, hasMore, loading, failed, loadMore };
}

import type { SupportEvent } from '@parkit/contract';
import { EventSourceParserStream } from 'eventsource-parser/stream';
import { api } from '../../../lib/api-client.ts';

export type StreamEvent = SupportEvent | { type: 'ready' };
export type StreamStatus = 'connecting' | 'open' | 'offline';

/**
 * Reads server-sent events with fetch (EventSource cannot send the bearer token) and reconnects
 * after a drop with a growing pause. Each (re)connection starts with {type:'ready'}, on which the
 * caller catches up on what it missed. Returns a function that stops it.
 */
export function connectEvents(
  path: string,
  onEvent: (e: StreamEvent) => void,
  onStatus: (s: StreamStatus) => void = () => undefined,
): () => void {
  const ctrl = new AbortController();
  let pause = 500;
  const loop = async () => {
    while (!ctrl.signal.aborted) {
      let ended = false;
      onStatus('connecting');
      try {
        const res = await api.raw(path, { signal: ctrl.signal, headers: { accept: 'text/event-stream' } });
        if (res.status === 401 || res.status === 403) {
          onStatus('offline');
          return; // not allowed: retrying would not help
        }
        if (!res.ok || !res.body) throw new Error(`events ${res.status}`);
        onStatus('open');
        pause = 500;
        // Server-sent events parsed by eventsource-parser (EventSource itself cannot send the token).
        const reader = res.body
          .pipeThrough(new TextDecoderStream())
          .pipeThrough(new EventSourceParserStream())
          .getReader();
        for (;;) {
          const { value, done } = await reader.read();
          if (done) {
            ended = true;
            break;
          }
          try {
            onEvent(JSON.parse(value.data) as StreamEvent);
          } catch {
            /* a malformed event is skipped */
          }
        }
      } catch {
        if (ctrl.signal.aborted) return;
      }
      // The server ends a stream after a token's lifetime: reconnect at once, no 'offline'.
      if (ended) continue;
      onStatus('offline');
      await new Promise((r) => setTimeout(r, pause));
      pause = Math.min(pause * 2, 10_000);
    }
  };
  void loop();
  return () => ctrl.abort();
}

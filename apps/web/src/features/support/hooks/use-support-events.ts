import { useEffect, useRef, useState } from 'react';
import { connectEvents, type StreamEvent, type StreamStatus } from '../lib/event-stream.ts';

/** Keeps a live event stream open while the screen is shown; the handler may change freely. */
export function useSupportEvents(path: string | null, onEvent: (e: StreamEvent) => void): StreamStatus {
  const handler = useRef(onEvent);
  useEffect(() => {
    handler.current = onEvent;
  });
  const [status, setStatus] = useState<StreamStatus>('connecting');
  useEffect(() => {
    if (!path) return;
    return connectEvents(path, (e) => handler.current(e), setStatus);
  }, [path]);
  return status;
}

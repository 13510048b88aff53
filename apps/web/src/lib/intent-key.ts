import { useCallback, useRef } from 'react';

/** crypto.randomUUID needs a secure context; getRandomValues does not. */
function newKey(): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/**
 * One Idempotency-Key per payment intent: the same key for a double tap or a retry of the same
 * request (the server credits once), a new one after a success or when the request changes.
 */
export function useIntentKey() {
  const ref = useRef<{ key: string; body: string } | null>(null);
  const keyFor = useCallback((body: unknown) => {
    const b = JSON.stringify(body);
    if (!ref.current || ref.current.body !== b) ref.current = { key: newKey(), body: b };
    return ref.current.key;
  }, []);
  const done = useCallback(() => {
    ref.current = null;
  }, []);
  return { keyFor, done };
}

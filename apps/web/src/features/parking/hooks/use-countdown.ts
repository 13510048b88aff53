import { useEffect, useState } from 'react';
import { secondsLeft } from '../lib/session-time.ts';

/**
 * Seconds left until `endsAt` on the server's clock (offset from clockOffset), ticking every
 * second. The tick re-reads Date.now(), so after the phone sleeps the first tick is right again.
 */
export function useCountdown(endsAt: string | null, offsetMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!endsAt) return;
    const tick = () => setNow(Date.now());
    const timer = setInterval(tick, 1000);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [endsAt]);
  return endsAt ? secondsLeft(endsAt, offsetMs, now) : 0;
}

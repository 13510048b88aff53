import { useEffect, useState } from 'react';

const clock = () => Date.now();

/**
 * Whole seconds left until `endsAt` (ms on this device's clock; null: nothing to count), never
 * below 0. It ticks once a second while time is left, and again when the page shows, so after the
 * phone slept the first tick is right. A new `endsAt` is counted from the time it arrives.
 */
export function useCountdown(endsAt: number | null): number {
  const [now, setNow] = useState(clock);
  const [counted, setCounted] = useState(endsAt);
  if (!Object.is(counted, endsAt)) {
    // A new end (a resend, an extension): read the clock now, not at the next tick.
    setCounted(endsAt);
    setNow(clock);
  }
  const left = endsAt === null || !Number.isFinite(endsAt) ? 0 : Math.max(0, Math.ceil((endsAt - now) / 1000));
  const running = left > 0;

  useEffect(() => {
    if (!running) return;
    const tick = () => setNow(clock);
    const timer = setInterval(tick, 1000);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [running, endsAt]);

  return left;
}

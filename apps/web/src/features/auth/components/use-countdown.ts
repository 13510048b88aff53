import { useCallback, useEffect, useState } from 'react';

/**
 * Seconds left, starting from `start` (default `seconds`); `restart(n)` starts again from n
 * (default `seconds`). Ticks once a second, stops at 0.
 */
export function useCountdown(seconds: number, start: number = seconds) {
  const [endsAt, setEndsAt] = useState(() => Date.now() + start * 1000);
  const [now, setNow] = useState(() => Date.now());
  const left = Math.max(0, Math.ceil((endsAt - now) / 1000));

  useEffect(() => {
    if (left === 0) return;
    const id = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(id);
  }, [left]);

  const restart = useCallback(
    (from: number = seconds) => {
      const t = Date.now();
      setNow(t);
      setEndsAt(t + from * 1000);
    },
    [seconds],
  );

  return { left, restart };
}

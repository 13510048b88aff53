import { DURATION_STEP_MINUTES } from '@parkit/contract';

/**
 * The server's clock seen from this device: `serverTime` was read when the answer arrived at
 * `receivedAt` (device ms). The difference is the device clock's error, kept for the countdown, so
 * a phone whose clock is wrong, or that slept, still counts to the server's end time.
 */
export function clockOffset(serverTime: string, receivedAt: number): number {
  const server = Date.parse(serverTime);
  return Number.isFinite(server) ? server - receivedAt : 0;
}

/** When `endsAt` (the server's clock) comes on this device's clock, for useCountdown; null: no end. */
export function deviceEnd(endsAt: string | null, offsetMs: number): number | null {
  const end = endsAt === null ? NaN : Date.parse(endsAt);
  return Number.isFinite(end) ? end - offsetMs : null;
}

/** 5025 s → '1:23:45'; 125 s → '2:05'. */
export function formatCountdown(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const mm = String(m).padStart(h > 0 ? 2 : 1, '0');
  return h > 0 ? `${h}:${mm}:${String(s).padStart(2, '0')}` : `${mm}:${String(s).padStart(2, '0')}`;
}

/** The picker's choices: every step up to the maximum, and the maximum itself when it is not a step. */
export function durationChoices(maxMinutes: number, step = DURATION_STEP_MINUTES): number[] {
  const out: number[] = [];
  for (let m = step; m <= maxMinutes; m += step) out.push(m);
  if (maxMinutes > 0 && out.at(-1) !== maxMinutes) out.push(maxMinutes);
  return out;
}

import { CALLBACK_MAX_DAYS, SUPPORT_MESSAGES as M, type SupportHours } from '@parkit/contract';

/** Call-back slots: every SLOT_MINUTES within the support hours (the SUPPORT_HOURS setting). */
export const SLOT_MINUTES = 30;

export interface HoursSetting {
  open: string;
  close: string;
  timeZone: string;
}

export function parseHours(hours: string, timeZone: string): HoursSetting {
  const [open = '09:00', close = '18:00'] = hours.split('-');
  return { open, close, timeZone };
}

export const hoursView = (h: HoursSetting): SupportHours => ({
  Open: h.open,
  Close: h.close,
  TimeZone: h.timeZone,
  SlotMinutes: SLOT_MINUTES,
  MaxDays: CALLBACK_MAX_DAYS,
});

/** Milliseconds the zone is ahead of UTC at an instant. */
function zoneOffset(instant: number, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(instant));
  const n = (type: string) => Number(parts.find((p) => p.type === type)?.value);
  return Date.UTC(n('year'), n('month') - 1, n('day'), n('hour'), n('minute'), n('second')) - instant;
}

/** A wall-clock date and time in a zone as an instant; null for a date that does not exist. */
export function zonedInstant(date: string, time: string, timeZone: string): Date | null {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = time.split(':').map(Number) as [number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  const check = new Date(wall);
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d) return null;
  let instant = wall - zoneOffset(wall, timeZone);
  instant = wall - zoneOffset(instant, timeZone);
  return new Date(instant);
}

export type SlotCheck = { ok: true; at: Date } | { ok: false; field: 'Date' | 'Time'; message: string };

/** A slot must exist, lie on the slot grid within support hours, in the future and within 30 days. */
export function checkSlot(date: string, time: string, hours: HoursSetting, now = new Date()): SlotCheck {
  const at = zonedInstant(date, time, hours.timeZone);
  if (!at) return { ok: false, field: 'Date', message: M.dateFormat };
  const minutes = Number(time.slice(0, 2)) * 60 + Number(time.slice(3));
  const toMin = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3));
  if (time < hours.open || time >= hours.close || (minutes - toMin(hours.open)) % SLOT_MINUTES !== 0) {
    return { ok: false, field: 'Time', message: M.slotOutsideHours };
  }
  if (at.getTime() <= now.getTime()) return { ok: false, field: 'Time', message: M.slotPast };
  if (at.getTime() > now.getTime() + CALLBACK_MAX_DAYS * 86_400_000)
    return { ok: false, field: 'Date', message: M.slotTooFar };
  return { ok: true, at };
}

import type { SupportHours } from '@parkit/contract';

/** Today's date and the time now in the support time zone (YYYY-MM-DD, HH:MM). */
export function zonedNow(timeZone: string, now = new Date()): { date: string; time: string } {
  const date = new Intl.DateTimeFormat('en-CA', { timeZone }).format(now);
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(now);
  return { date, time };
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const t = new Date(Date.UTC(y, m - 1, d + days));
  return t.toISOString().slice(0, 10);
}

/** The slots of a day within support hours; on today only those still ahead. */
export function slotsFor(date: string, hours: SupportHours, now = new Date()): string[] {
  const toMin = (t: string) => Number(t.slice(0, 2)) * 60 + Number(t.slice(3, 5));
  const today = zonedNow(hours.TimeZone, now);
  const out: string[] = [];
  for (let m = toMin(hours.Open); m < toMin(hours.Close); m += hours.SlotMinutes) {
    const t = `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
    if (date === today.date && t <= today.time) continue;
    out.push(t);
  }
  return out;
}

/** '14:30' → '02:30 PM' (the hh:mm A of docs/product.md#formats-and-limits). */
export function slotLabel(time: string): string {
  const h = Number(time.slice(0, 2));
  return `${String(h % 12 || 12).padStart(2, '0')}:${time.slice(3, 5)} ${h < 12 ? 'AM' : 'PM'}`;
}

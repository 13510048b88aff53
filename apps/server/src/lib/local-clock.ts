/**
 * The local calendar of an instant in an IANA time zone: date, ISO weekday and minute after
 * midnight, read through Intl (the runtime's time zone data, so DST is the runtime's).
 */

export interface LocalTime {
  /** 'YYYY-MM-DD' */
  date: string;
  /** 1 = Monday .. 7 = Sunday */
  isoDay: number;
  /** 0..1439 */
  minute: number;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    // Throws RangeError for an unknown zone: an operator's time zone is configuration, not input.
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

export function localTimeAt(ms: number, timeZone: string): LocalTime {
  let y = '';
  let mo = '';
  let d = '';
  let isoDay = 0;
  let hour = 0;
  let minute = 0;
  for (const p of formatterFor(timeZone).formatToParts(ms)) {
    if (p.type === 'year') y = p.value;
    else if (p.type === 'month') mo = p.value;
    else if (p.type === 'day') d = p.value;
    else if (p.type === 'weekday') isoDay = WEEKDAYS[p.value] ?? 0;
    else if (p.type === 'hour') hour = Number(p.value);
    else if (p.type === 'minute') minute = Number(p.value);
  }
  if (isoDay === 0) throw new Error(`cannot read the weekday in ${timeZone}`);
  return { date: `${y}-${mo}-${d}`, isoDay, minute: hour * 60 + minute };
}

/** The local date before `date` ('YYYY-MM-DD'), by the calendar. */
export function dayBefore(date: string): string {
  const t = Date.parse(`${date}T00:00:00Z`) - 86_400_000;
  return new Date(t).toISOString().slice(0, 10);
}

/** 'HH:MM' (or '24:00') to minutes after midnight. */
export function clockMinutes(clock: string): number {
  return Number(clock.slice(0, 2)) * 60 + Number(clock.slice(3, 5));
}

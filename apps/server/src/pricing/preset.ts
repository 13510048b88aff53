import type { PolicyBody } from '@parkit/contract';

/**
 * The policy equal to a zone's preset (its rate, paid days and hours, maximum stay): one span of
 * the paid hours at the rate, billed by the minute. A zone with no policy of its own is priced by
 * it, and the adoption step (policy-repository.ts) saves it as the zone's first policy.
 */
export interface Preset {
  rateCents: number;
  maxStayMinutes: number;
  paidDays: readonly number[];
  paidFromMinute: number;
  paidUntilMinute: number;
}

function clock(minute: number): string {
  return `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;
}

export function presetPolicy(z: Preset): PolicyBody {
  const days = [...new Set(z.paidDays)].filter((d) => d >= 1 && d <= 7).sort((a, b) => a - b);
  return {
    Spans:
      days.length === 0
        ? []
        : [
            {
              Id: 'paid',
              Name: 'Paid hours',
              Days: days,
              From: clock(z.paidFromMinute),
              Until: z.paidUntilMinute === 1440 ? '24:00' : clock(z.paidUntilMinute),
              Rate: [{ FromMinute: 0, CentsPerHour: z.rateCents }],
              IncrementMinutes: 1,
              FreeMinutes: 0,
              UserClasses: [],
            },
          ],
    Holidays: [],
    MaxStayMinutes: z.maxStayMinutes,
  };
}

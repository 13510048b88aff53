import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU time from Linux's /proc, to say what a request costs beside how many the machine served:
 * on a shared machine req/s moves with the neighbours' load, CPU per request much less. Null
 * where /proc cannot be read (not Linux).
 */
const TICKS_PER_SECOND = 100;

/** User + system CPU seconds of one process (all its threads), or null. */
export function processCpu(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    // The fields after the command name, which may hold spaces: utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}

/** CPU seconds of every PostgreSQL process on this machine (the server's backends among them), or null. */
export function postgresCpu(): number | null {
  let total = 0;
  let found = false;
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return null;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (!readFileSync(`/proc/${entry}/stat`, 'utf8').includes('(postgres)')) continue;
    } catch {
      continue; // Gone meanwhile.
    }
    const cpu = processCpu(Number(entry));
    if (cpu !== null) {
      total += cpu;
      found = true;
    }
  }
  return found ? total : null;
}

/** Microseconds of CPU per request between two readings (processCpu or postgresCpu), or null. */
export const perRequest = (before: number | null, after: number | null, requests: number) =>
  before === null || after === null || requests === 0 ? null : ((after - before) * 1e6) / requests;

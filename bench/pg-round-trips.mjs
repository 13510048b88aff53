// Preloaded into the server by bench/parking.ts (node --import): counts the queries the server
// sends to PostgreSQL (each pg Client.query is one round trip: BEGIN and COMMIT included) and, on
// SIGUSR2, writes the count and (with BENCH_PG_TRACE) the last statements to BENCH_PG_COUNT_FILE.
// Bench only. It stays cheap under load: a counter, and the statement text kept as it is (no
// formatting) only when tracing.
import { writeFileSync } from 'node:fs';
import pg from 'pg';

let count = 0;
const trace = Boolean(process.env.BENCH_PG_TRACE);
const recent = [];
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(...args) {
  count += 1;
  if (trace) {
    recent.push(typeof args[0] === 'string' ? args[0] : args[0]?.text);
    if (recent.length > 60) recent.shift();
  }
  return query.apply(this, args);
};
process.on('SIGUSR2', () => {
  const texts = recent.map((t) =>
    String(t ?? '')
      .replace(/\s+/g, ' ')
      .slice(0, 140),
  );
  if (process.env.BENCH_PG_COUNT_FILE)
    writeFileSync(process.env.BENCH_PG_COUNT_FILE, JSON.stringify({ count, recent: texts }));
});

// Preloaded into the server by bench/parking.ts (node --import): counts the queries the server
// sends to PostgreSQL (each pg Client.query is one round trip: BEGIN and COMMIT included) and, on
// SIGUSR2, writes the count and the last statements to BENCH_PG_COUNT_FILE. Bench only.
import { writeFileSync } from 'node:fs';
import pg from 'pg';

let count = 0;
const recent = [];
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(...args) {
  count += 1;
  const text = typeof args[0] === 'string' ? args[0] : args[0]?.text;
  recent.push(String(text ?? '').replace(/\s+/g, ' ').slice(0, 140));
  if (recent.length > 60) recent.shift();
  return query.apply(this, args);
};
process.on('SIGUSR2', () => {
  if (process.env.BENCH_PG_COUNT_FILE) writeFileSync(process.env.BENCH_PG_COUNT_FILE, JSON.stringify({ count, recent }));
});

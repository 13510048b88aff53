// npm run mutate [-- contract|web|money|money:pglite|money:postgres]: StrykerJS over the contract,
// the web app's lib/ and the server's money code (stryker.config.mjs), one scope after the other.
// With no scope: contract and web (money takes the better part of an hour per database: ask for it).
// money runs twice, on PGlite and on PostgreSQL (TEST_DATABASE_URL, as the server-pg tests).
import { spawnSync } from 'node:child_process';

const runs = {
  contract: [{ MUTATE: 'contract' }],
  web: [{ MUTATE: 'web' }],
  money: [
    { MUTATE: 'money', MUTATE_DB: 'pglite' },
    { MUTATE: 'money', MUTATE_DB: 'postgres' },
  ],
  'money:pglite': [{ MUTATE: 'money', MUTATE_DB: 'pglite' }],
  'money:postgres': [{ MUTATE: 'money', MUTATE_DB: 'postgres' }],
};
const asked = process.argv.slice(2);
const unknown = asked.filter((s) => !(s in runs));
if (unknown.length > 0) {
  console.error(`Unknown scope: ${unknown.join(', ')} (${Object.keys(runs).join(', ')})`);
  process.exit(2);
}
for (const scope of asked.length > 0 ? asked : ['contract', 'web']) {
  for (const env of runs[scope]) {
    const run = spawnSync('npx', ['stryker', 'run'], { stdio: 'inherit', env: { ...process.env, ...env } });
    if (run.status !== 0) process.exit(run.status ?? 1);
  }
}

// npm run mutate [-- contract|web]: StrykerJS over the contract and the web app's lib/
// (stryker.config.mjs), one scope after the other.
import { spawnSync } from 'node:child_process';

const asked = process.argv.slice(2);
const unknown = asked.filter((s) => s !== 'contract' && s !== 'web');
if (unknown.length > 0) {
  console.error(`Unknown scope: ${unknown.join(', ')} (contract, web)`);
  process.exit(2);
}
for (const scope of asked.length > 0 ? asked : ['contract', 'web']) {
  const run = spawnSync('npx', ['stryker', 'run'], { stdio: 'inherit', env: { ...process.env, MUTATE: scope } });
  if (run.status !== 0) process.exit(run.status ?? 1);
}

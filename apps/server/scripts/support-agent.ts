// npm run support:agent -- --username NAME [--password PASSWORD]
// Makes NAME a support agent. An existing member keeps their password and gains the
// role; otherwise an account is created with the given password (or SUPPORT_AGENT_PASSWORD, or a
// generated one printed once). Agents sign in on the ordinary sign-in and land on /support-console.
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { createAgent } from '../src/support/index.ts';

try {
  const { values } = parseArgs({
    options: { username: { type: 'string' }, password: { type: 'string' } },
    strict: true,
  });
  if (!values.username) throw new Error('Usage: npm run support:agent -- --username NAME [--password PASSWORD]');
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const result = await createAgent(
      database.db,
      values.username,
      values.password ?? process.env.SUPPORT_AGENT_PASSWORD,
    );
    if (result.created) {
      console.log(`Support agent "${result.userName}" created.`);
      if (result.generatedPassword) console.log(`Password (shown once): ${result.generatedPassword}`);
    } else {
      console.log(`"${result.userName}" is now a support agent (existing account, password unchanged).`);
    }
  } finally {
    await database.close();
  }
} catch (err) {
  console.error('support:agent failed:', err instanceof Error ? err.message : err);
  process.exit(1);
}

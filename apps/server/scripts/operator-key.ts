// npm run operator:key -- --operator ID [--label TEXT] | --list | --revoke PREFIX
// Creates an API key for an operator's enforcement officers (printed once; only its hash is kept),
// lists an operator's keys, or revokes one. Exit code 1 on any error.
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { operatorById } from '../src/plugins/app/zones/operator-repository.ts';
import { createKey, listKeys, revokeKey } from '../src/plugins/app/enforcement/api-key-repository.ts';

const USAGE = `Usage: npm run operator:key -- --operator ID [--label TEXT]   create a key (shown once)
       npm run operator:key -- --operator ID --list             list the operator's keys
       npm run operator:key -- --operator ID --revoke PREFIX    revoke a key (PREFIX as listed)

Officers send the key in the x-operator-key header of GET /api/Enforcement/Check, or paste it
into /enforcement. With the embedded database (no DATABASE_URL), stop the server first.`;

type Args = { operatorId: number; action: 'create'; label: string } | { operatorId: number; action: 'list' } | { operatorId: number; action: 'revoke'; prefix: string };

function parseArgs(argv: readonly string[]): Args | 'help' | string {
  let operatorId: number | undefined;
  let label = '';
  let list = false;
  let revoke: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => (a.includes('=') ? a.slice(a.indexOf('=') + 1) : argv[++i]);
    if (a === '--help' || a === '-h') return 'help';
    else if (a === '--list') list = true;
    else if (a === '--operator' || a.startsWith('--operator=')) {
      const v = value();
      if (!v || !/^[1-9]\d{0,9}$/.test(v)) return '--operator needs a positive whole number';
      operatorId = Number(v);
    } else if (a === '--label' || a.startsWith('--label=')) {
      const v = value();
      if (v === undefined || v.length > 100) return '--label needs a text of at most 100 characters';
      label = v;
    } else if (a === '--revoke' || a.startsWith('--revoke=')) {
      const v = value();
      if (!v || !/^pk_[A-Za-z0-9_-]{8}$/.test(v)) return '--revoke needs a key prefix as listed (pk_ and 8 characters)';
      revoke = v;
    } else return `unknown option ${a}`;
  }
  if (operatorId === undefined) return 'no --operator ID given';
  if (list && revoke) return 'either --list or --revoke, not both';
  if (list) return { operatorId, action: 'list' };
  if (revoke) return { operatorId, action: 'revoke', prefix: revoke };
  return { operatorId, action: 'create', label };
}

async function main(): Promise<number> {
  if (process.env.npm_config_operator !== undefined || process.env.npm_config_list !== undefined) {
    console.error('npm took the options for itself: put -- before them, e.g. npm run operator:key -- --operator 1');
    return 1;
  }
  const args = parseArgs(process.argv.slice(2));
  if (args === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (typeof args === 'string') {
    console.error(`${args}\n\n${USAGE}`);
    return 1;
  }
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const operator = await operatorById(database.db, args.operatorId);
    if (!operator) {
      console.error(`No operator ${args.operatorId}.`);
      return 1;
    }
    const who = `operator ${operator.id} (${operator.name})`;
    if (args.action === 'list') {
      const keys = await listKeys(database.db, operator.id);
      if (keys.length === 0) console.log(`No keys for ${who}.`);
      for (const k of keys) {
        const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
        const used = k.lastUsedAt ? `last used ${k.lastUsedAt.toISOString()}` : 'never used';
        console.log(`${k.prefix}  ${state}  created ${k.createdAt.toISOString()}  ${used}${k.label ? `  ${k.label}` : ''}`);
      }
      return 0;
    }
    if (args.action === 'revoke') {
      if (!(await revokeKey(database.db, operator.id, args.prefix))) {
        console.error(`No active key ${args.prefix} for ${who}.`);
        return 1;
      }
      console.log(`Revoked ${args.prefix} of ${who}.`);
      return 0;
    }
    const created = await createKey(database.db, operator.id, args.label);
    console.log(`Created a key for ${who}. It is shown only now; keep it safe:\n${created.key}`);
    return 0;
  } finally {
    await database.close();
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error('operator:key failed:', err instanceof Error ? err.message : err);
    process.exit(1);
  },
);

// npm run operator:key -- --operator ID [--cds] [--label TEXT] | --list | --revoke PREFIX
// Creates an API key for an operator's enforcement officers, or with --cds the city's CDS Events
// and Metrics feed key (printed once; only its hash is kept), lists an operator's keys of that
// kind, or revokes one; a key made or revoked is written to the operator's audit log, by "command
// line". Exit code 1 on any error.
import { parseArgs } from 'node:util';
import { issueKey, listKeys, withdrawKey } from '../src/enforcement/index.ts';
import { COMMAND_LINE } from '../src/operators/index.ts';
import type { KeyPurpose } from '../src/db/schema/index.ts';
import { cliArgs, runCli, withOperator } from './cli.ts';

const USAGE = `Usage: npm run operator:key -- --operator ID [--label TEXT]   create a key (shown once)
       npm run operator:key -- --operator ID --list             list the operator's keys
       npm run operator:key -- --operator ID --revoke PREFIX    revoke a key (PREFIX as listed)
Add --cds to any of them for the city's CDS feed keys instead of the officers' keys.

Officers send the key in the x-operator-key header of GET /api/Enforcement/Check, or paste it
into /enforcement. A city sends a CDS key as Authorization: Bearer KEY to /cds/events/* and
/cds/metrics/* (docs/open-data.md). With the embedded database (no DATABASE_URL), stop the server first.`;

type Args = { purpose: KeyPurpose } & (
  | { operatorId: number; action: 'create'; label: string }
  | { operatorId: number; action: 'list' }
  | { operatorId: number; action: 'revoke'; prefix: string }
);

/** The command line, read by node's util.parseArgs; a string is what is wrong with it. */
function readArgs(argv: string[]): Args | 'help' | string {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        operator: { type: 'string' },
        label: { type: 'string' },
        list: { type: 'boolean' },
        revoke: { type: 'string' },
        cds: { type: 'boolean' },
      },
    }));
  } catch (err) {
    return (err as Error).message;
  }
  if (values.help) return 'help';
  if (values.operator === undefined) return 'no --operator ID given';
  if (!/^[1-9]\d{0,9}$/.test(values.operator)) return '--operator needs a positive whole number';
  const operatorId = Number(values.operator);
  const purpose: KeyPurpose = values.cds ? 'cds' : 'enforcement';
  if (values.list && values.revoke !== undefined) return 'either --list or --revoke, not both';
  if (values.list) return { operatorId, purpose, action: 'list' };
  if (values.revoke !== undefined) {
    if (!/^pk_[A-Za-z0-9_-]{8}$/.test(values.revoke))
      return '--revoke needs a key prefix as listed (pk_ and 8 characters)';
    return { operatorId, purpose, action: 'revoke', prefix: values.revoke };
  }
  const label = values.label ?? '';
  if (label.length > 100) return '--label needs a text of at most 100 characters';
  return { operatorId, purpose, action: 'create', label };
}

async function main(): Promise<number> {
  // Without `--`, npm keeps the options for itself and passes only their values on.
  const args = cliArgs({
    argv: process.argv.slice(2),
    read: readArgs,
    usage: USAGE,
    npmOptions: ['operator', 'list', 'cds'],
    example: 'npm run operator:key -- --operator 1',
  });
  if (typeof args === 'number') return args;
  return withOperator(args.operatorId, async (db, operator) => {
    const who = `operator ${operator.id} (${operator.name})`;
    if (args.action === 'list') {
      const keys = await listKeys(db, operator.id, args.purpose);
      if (keys.length === 0) console.log(`No keys for ${who}.`);
      for (const k of keys) {
        const state = k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active';
        const used = k.lastUsedAt ? `last used ${k.lastUsedAt.toISOString()}` : 'never used';
        console.log(
          `${k.prefix}  ${state}  created ${k.createdAt.toISOString()}  ${used}${k.label ? `  ${k.label}` : ''}`,
        );
      }
      return 0;
    }
    if (args.action === 'revoke') {
      try {
        await withdrawKey(db, operator.id, COMMAND_LINE, args.prefix, [args.purpose]);
      } catch (err) {
        if ((err as { statusCode?: number }).statusCode !== 404) throw err;
        console.error(`No active key ${args.prefix} for ${who}.`);
        return 1;
      }
      console.log(`Revoked ${args.prefix} of ${who}.`);
      return 0;
    }
    const created = await issueKey(db, operator.id, COMMAND_LINE, { purpose: args.purpose, label: args.label });
    console.log(
      `Created a${args.purpose === 'cds' ? ' CDS feed' : ''} key for ${who}. It is shown only now; keep it safe:\n${created.Key}`,
    );
    return 0;
  });
}

runCli(main, 'operator:key failed');

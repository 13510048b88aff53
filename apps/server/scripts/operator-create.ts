// npm run operator:create -- --name NAME --owner USERNAME [--password PASSWORD] [--city C --state S
// --lat LAT --lng LNG --timezone TZ]
// Makes an operator and its owner. An existing member keeps their password and becomes the owner;
// otherwise an account is made with --password (or OPERATOR_OWNER_PASSWORD, or a generated one
// printed once). The owner signs in on the ordinary sign-in and lands on /operator.
import { parseArgs } from 'node:util';
import { MESSAGES, UserName } from '@parkit/contract';
import { loadConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/client.ts';
import { createOperator, makeOwner } from '../src/operators/index.ts';
import { cliArgs, runCli } from './cli.ts';

const USAGE = `Usage: npm run operator:create -- --name NAME --owner USERNAME [--password PASSWORD]
         [--city CITY] [--state ST] [--lat LAT --lng LNG] [--timezone AREA/CITY]

What is not given is the demo city's (Austin, TX, America/Chicago). With the embedded database
(no DATABASE_URL), stop the server first.`;

interface Args {
  name: string;
  owner: string;
  password?: string;
  city?: string;
  state?: string;
  lat?: number;
  lng?: number;
  timezone?: string;
}

function readArgs(argv: string[]): Args | 'help' | string {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        help: { type: 'boolean', short: 'h' },
        name: { type: 'string' },
        owner: { type: 'string' },
        password: { type: 'string' },
        city: { type: 'string' },
        state: { type: 'string' },
        lat: { type: 'string' },
        lng: { type: 'string' },
        timezone: { type: 'string' },
      },
    }));
  } catch (err) {
    return (err as Error).message;
  }
  if (values.help) return 'help';
  if (!values.name) return 'no --name NAME given';
  if (!values.owner) return 'no --owner USERNAME given';
  if (!UserName.safeParse(values.owner).success) return `--owner: ${MESSAGES.usernameFormat}`;
  if ((values.lat === undefined) !== (values.lng === undefined)) return '--lat and --lng go together';
  const lat = values.lat === undefined ? undefined : Number(values.lat);
  const lng = values.lng === undefined ? undefined : Number(values.lng);
  if (lat !== undefined && !(Math.abs(lat) <= 90)) return '--lat needs a latitude from -90 to 90';
  if (lng !== undefined && !(Math.abs(lng) <= 180)) return '--lng needs a longitude from -180 to 180';
  if (values.state !== undefined && !/^[A-Z]{2}$/.test(values.state)) return '--state needs two capital letters';
  const password = values.password ?? process.env.OPERATOR_OWNER_PASSWORD;
  if (password !== undefined && (password.length < 8 || password.length > 128))
    return `--password: ${MESSAGES.passwordLength}`;
  return {
    name: values.name,
    owner: values.owner,
    ...(password === undefined ? {} : { password }),
    ...(values.city === undefined ? {} : { city: values.city }),
    ...(values.state === undefined ? {} : { state: values.state }),
    ...(lat === undefined || lng === undefined ? {} : { lat, lng }),
    ...(values.timezone === undefined ? {} : { timezone: values.timezone }),
  };
}

async function main(): Promise<number> {
  const args = cliArgs({
    argv: process.argv.slice(2),
    read: readArgs,
    usage: USAGE,
    npmOptions: ['name', 'owner'],
    example: 'npm run operator:create -- --name "City Parking" --owner alice',
  });
  if (typeof args === 'number') return args;
  const config = loadConfig();
  const database = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR });
  try {
    const { owner, password, ...operator } = args;
    const operatorId = await createOperator(database.db, operator);
    const result = await makeOwner(database.db, operatorId, owner, password);
    console.log(`Operator ${operatorId} (${args.name}) created; its owner is "${result.userName}".`);
    if (!result.created) console.log('(An existing account: its password is unchanged.)');
    if (result.generatedPassword) console.log(`Password (shown once): ${result.generatedPassword}`);
    return 0;
  } finally {
    await database.close();
  }
}

runCli(main, 'operator:create failed');

import pg from 'pg';

/**
 * The e2e run on PostgreSQL (E2E_DATABASE=postgres, `npm run test:e2e:pg`): its own database, made before
 * the server starts (the config's web server command runs `create`) and dropped after the run
 * (contract/teardown.ts), on the server at E2E_PG_ADMIN_URL.
 */
export const adminUrl = process.env.E2E_PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The run's database URL: the admin URL with the database named `name`. */
export function databaseUrl(name: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function asAdmin<T>(run: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    return await run(c);
  } finally {
    await c.end();
  }
}

export async function createDatabase(name: string): Promise<void> {
  await asAdmin((c) => c.query(`CREATE DATABASE ${name}`));
}

/**
 * Proof that the server kept its data in the run's database, not in an embedded one it fell back to:
 * the members the specs signed up are there. Throws otherwise.
 */
export async function checkUsed(name: string): Promise<number> {
  const c = new pg.Client({ connectionString: databaseUrl(name) });
  await c.connect();
  try {
    const { rows } = await c.query<{ n: number }>('select count(*)::int as n from members');
    const n = rows[0]?.n ?? 0;
    if (n < 2) throw new Error(`the run's PostgreSQL database ${name} holds ${n} members: the server did not use it`);
    return n;
  } finally {
    await c.end();
  }
}

export async function dropDatabase(name: string): Promise<void> {
  await asAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

// `node --import tsx postgres.ts create <name>`: the web server command's first step.
if (process.argv[2] === 'create' && process.argv[3]) await createDatabase(process.argv[3]);

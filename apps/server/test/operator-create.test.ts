import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/client.ts';
import { findByLogin } from '../src/members/index.ts';
import { membershipsOf } from '../src/operators/index.ts';
import { verifyPassword } from '../src/auth/index.ts';
import { auditEntries } from '../src/infra/audit-log.ts';
import { cliDatabaseEnv, runScript } from './support/cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'parkit-operator-create-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('npm run operator:create', () => {
  it(
    'makes an operator and its owner (a new account or an existing one), audited; refuses bad options',
    { timeout: 240_000 },
    async () => {
      const { env, drop } = await cliDatabaseEnv(dir);
      const open = () => openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
      const cli = runScript('operator-create.ts', env);
      try {
        const made = await cli(
          '--name',
          'Campus Parking',
          '--owner',
          'campus_owner',
          '--password',
          'campus-pass-1',
          '--timezone',
          'America/Denver',
        );
        expect(made, made.out).toMatchObject({ code: 0, out: expect.stringContaining('"campus_owner"') });
        const operatorId = Number(/Operator (\d+)/.exec(made.out)?.[1]);

        const second = await cli('--name', 'Garage Co', '--owner', 'campus_owner');
        expect(second).toMatchObject({ code: 0, out: expect.stringContaining('existing account') });
        expect(second.out).not.toContain('Password');

        const d = await open();
        try {
          const owner = await findByLogin(d.db, 'campus_owner');
          expect(owner).not.toBeNull();
          expect(await verifyPassword('campus-pass-1', owner!.passwordHash)).toBe(true);
          const mine = await membershipsOf(d.db, owner!.id);
          expect(mine.map((m) => [m.Name, m.Role]).sort()).toEqual([
            ['Campus Parking', 'owner'],
            ['Garage Co', 'owner'],
          ]);
          const [entry] = await auditEntries(d.db, operatorId, { limit: 5 });
          expect(entry).toMatchObject({ action: 'staff.join', actorId: null, actorName: 'command line' });
        } finally {
          await d.close();
        }

        const [usage, noOwner, badZone, badName] = await Promise.all([
          cli(),
          cli('--name', 'X'),
          cli('--name', 'X', '--owner', 'someone', '--timezone', 'Mars/Olympus'),
          cli('--name', 'X', '--owner', 'no spaces allowed'),
        ]);
        expect(usage).toMatchObject({ code: 1, out: expect.stringContaining('Usage:') });
        expect(noOwner).toMatchObject({ code: 1, out: expect.stringContaining('--owner') });
        expect(badZone).toMatchObject({ code: 1, out: expect.stringContaining('not an IANA time zone') });
        expect(badName.code).toBe(1);
      } finally {
        await drop();
      }
    },
  );
});

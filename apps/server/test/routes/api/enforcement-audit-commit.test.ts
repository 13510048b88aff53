import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { queryRows, type Executor } from '../../../src/db/client.ts';
import { enforcementChecks } from '../../../src/db/schema/index.ts';
import { audit, checkPlate, type AuditEntry } from '../../../src/enforcement/check-repository.ts';
import { defaultOperatorId } from '../../../src/zones/index.ts';
import { freshDatabase } from '../../helpers.ts';

/**
 * The plate check's audit row commits with synchronous_commit off for its own statement's
 * transaction only (check-repository.ts AUDIT_COMMIT, docs/decisions/018-plate-check-audit-commit.md):
 * the row is written, the setting is off until that transaction ends, and no later statement on
 * the connection commits so. Both databases (PGlite accepts the setting and has one connection).
 */
const database = await freshDatabase();
afterAll(() => database.close());
const { db } = database;
const operatorId = await defaultOperatorId(db);

const setting = async (ex: Executor) =>
  (await queryRows<{ s: string }>(ex, sql`select current_setting('synchronous_commit') as s`))[0]!.s;

/** A check of a zone number the operator does not have, under a member: answered (not found) and audited. */
const missingZone = (plate: string) =>
  ({
    keyId: null,
    memberId: 1,
    operatorId,
    keyPrefix: null,
    clientAddress: '127.0.0.1',
    zone: { number: 'NO-SUCH-ZONE' },
    plate,
    plateState: 'TX',
  }) as const;

/** A refusal's row, as the operator scope writes it. */
const refusal = (plate: string): AuditEntry => ({
  ...missingZone(plate),
  zoneNumber: '1',
  outcome: 'unauthorized',
  paid: null,
  sessionId: null,
  address: '',
});

const outcomesOf = async (plate: string) =>
  (await db.select().from(enforcementChecks).where(eq(enforcementChecks.plate, plate))).map((r) => r.outcome);

/** Rolled back on purpose: the transaction only lets the test read the setting before it ends. */
class Rollback extends Error {}
async function settingInside(run: (tx: Executor) => Promise<unknown>): Promise<string> {
  let seen = '';
  await db
    .transaction(async (tx) => {
      await run(tx);
      seen = await setting(tx);
      throw new Rollback();
    })
    .catch((e: unknown) => {
      if (!(e instanceof Rollback)) throw e;
    });
  return seen;
}

describe('the plate check audit commit', () => {
  it('the check statement sets synchronous_commit off for its own transaction', async () => {
    expect(await setting(db)).toBe('on');
    expect(await settingInside((tx) => checkPlate(tx, missingZone('COMMIT1')))).toBe('off');
  });

  it('audit() does too, for a refusal', async () => {
    expect(await settingInside((tx) => audit(tx, refusal('COMMIT2')))).toBe('off');
  });

  it('writes the row, and leaves the connection as it was: every later statement commits synchronously', async () => {
    for (let i = 0; i < 10; i += 1) {
      expect((await checkPlate(db, missingZone(`COMMIT3${i}`))).zoneFound).toBe(false);
      await audit(db, refusal(`COMMIT4${i}`));
      expect(await setting(db)).toBe('on');
    }
    expect(await outcomesOf('COMMIT39')).toEqual(['zone_not_found']);
    expect(await outcomesOf('COMMIT49')).toEqual(['unauthorized']);
    // The rolled-back transactions above wrote nothing.
    expect(await outcomesOf('COMMIT1')).toEqual([]);
  });
});

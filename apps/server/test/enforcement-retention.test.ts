// Retention: plates in plate checks, expired permits (and their visitor days) and ended APDS
// assigned rights are anonymised after the operator's period (13 weeks unless the owner set
// another), by a job; recent rows are kept, each operator's own period counts, and a second run
// changes nothing (both databases).
import { randomBytes } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { anonymiseExpiredPlates, ANONYMISED_PLATE, registerEnforcementJobs } from '../src/enforcement/index.ts';
import { createJobRunner } from '../src/infra/jobs/job-runner.ts';
import {
  apdsAssignedRights,
  enforcementChecks,
  operatorApiKeys,
  operators,
  permits,
  permitTypes,
  visitorDays,
} from '../src/db/schema/index.ts';
import { registerAndSignIn } from './helpers.ts';
import { twoOperators } from './operator-helpers.ts';
import { addZone } from './parking-helpers.ts';

const { app, db, A, B } = await twoOperators('Other Retention Parking', []);
const zoneId = await addZone(db, 'RT1');
const driver = await registerAndSignIn(app);
const DAY = 86_400_000;
const now = new Date('2026-06-01T12:00:00Z');
const ago = (days: number) => new Date(now.getTime() - days * DAY);

async function keyOf(operatorId: number) {
  const [k] = await db
    .insert(operatorApiKeys)
    .values({ operatorId, prefix: `pk_${randomBytes(4).toString('hex')}`, keyHash: 'a'.repeat(64) })
    .returning({ id: operatorApiKeys.id });
  return k!.id;
}

async function check(operatorId: number, keyId: number, plate: string, at: Date) {
  const [c] = await db
    .insert(enforcementChecks)
    .values({
      keyId,
      operatorId,
      zoneNumber: 'RT1',
      plate,
      plateState: 'TX',
      outcome: 'not_paid',
      paid: false,
      checkedAt: at,
    })
    .returning({ id: enforcementChecks.id });
  return c!.id;
}

async function permit(operatorId: number, plates: string[], validUntil: Date, refusedAt: Date | null = null) {
  const [t] = await db
    .insert(permitTypes)
    .values({ operatorId, kind: 'resident', name: 'R', zoneIds: [zoneId], validMonths: 12, priceCents: 0 })
    .returning({ id: permitTypes.id });
  const [p] = await db
    .insert(permits)
    .values({
      operatorId,
      typeId: t!.id,
      memberId: driver.memberId,
      plates,
      zoneIds: [zoneId],
      priceCents: 0,
      ...(refusedAt
        ? { status: 'refused' as const, decidedAt: refusedAt, refusalReason: 'No proof of address' }
        : { status: 'active' as const, validFrom: new Date(validUntil.getTime() - 365 * DAY), validUntil }),
    })
    .returning({ id: permits.id });
  return p!.id;
}

const platesOfChecks = async (ids: number[]) =>
  Object.fromEntries(
    (
      await db
        .select({ id: enforcementChecks.id, plate: enforcementChecks.plate })
        .from(enforcementChecks)
        .where(inArray(enforcementChecks.id, ids))
    ).map((r) => [r.id, r.plate]),
  );
const platesOfPermit = async (id: number) =>
  (await db.select({ plates: permits.plates }).from(permits).where(eq(permits.id, id)))[0]!.plates;

describe('the retention job', () => {
  it('anonymises checks and expired permits past each operator’s period, keeps recent ones, once', async () => {
    expect((await db.select({ w: operators.retentionWeeks }).from(operators).where(eq(operators.id, A)))[0]!.w).toBe(
      13,
    );
    await db.update(operators).set({ retentionWeeks: 52 }).where(eq(operators.id, B));
    const [kA, kB] = [await keyOf(A), await keyOf(B)];
    const oldA = await check(A, kA, 'OLD1', ago(13 * 7 + 1));
    const newA = await check(A, kA, 'NEW1', ago(13 * 7 - 1));
    const oldB = await check(B, kB, 'OLDB1', ago(13 * 7 + 1));
    const veryOldB = await check(B, kB, 'OLDB2', ago(52 * 7 + 1));
    const expiredA = await permit(A, ['EXP1', 'EXP2'], ago(13 * 7 + 1));
    const lateA = await permit(A, ['LATE1'], ago(13 * 7 - 1));
    const runningA = await permit(A, ['RUN1'], new Date(now.getTime() + 30 * DAY));
    const expiredB = await permit(B, ['EXPB'], ago(13 * 7 + 1));
    const refusedA = await permit(A, ['REF1'], now, ago(13 * 7 + 1));
    const refusedLateA = await permit(A, ['REF2'], now, ago(13 * 7 - 1));
    const [g1, g2] = await db
      .insert(visitorDays)
      .values([
        { operatorId: A, permitId: expiredA, memberId: driver.memberId, plate: 'GUEST1', day: '2025-12-01' },
        { operatorId: A, permitId: expiredA, memberId: driver.memberId, plate: 'GUEST2', day: '2025-12-01' },
      ])
      .returning({ id: visitorDays.id });

    // Checks: 2 (oldA, veryOldB); permits: expiredA, refusedA; visitor days: 2.
    const [first, second] = await Promise.all([anonymiseExpiredPlates(db, now), anonymiseExpiredPlates(db, now)]);
    expect(first! + second!).toBe(6);
    expect(await anonymiseExpiredPlates(db, now)).toBe(0);

    expect(await platesOfChecks([oldA, newA, oldB, veryOldB])).toEqual({
      [oldA]: ANONYMISED_PLATE,
      [newA]: 'NEW1',
      [oldB]: 'OLDB1',
      [veryOldB]: ANONYMISED_PLATE,
    });
    // What reports need stays: the operator, zone, time and answer.
    const [kept] = await db.select().from(enforcementChecks).where(eq(enforcementChecks.id, oldA));
    expect(kept).toMatchObject({ operatorId: A, zoneNumber: 'RT1', outcome: 'not_paid', paid: false, keyId: kA });
    expect(await platesOfPermit(expiredA)).toEqual([ANONYMISED_PLATE, ANONYMISED_PLATE]);
    expect(await platesOfPermit(lateA)).toEqual(['LATE1']);
    expect(await platesOfPermit(runningA)).toEqual(['RUN1']);
    expect(await platesOfPermit(expiredB)).toEqual(['EXPB']);
    // A refused application's plate goes after the period from its refusal; its reason stays.
    expect(await platesOfPermit(refusedA)).toEqual([ANONYMISED_PLATE]);
    expect(await platesOfPermit(refusedLateA)).toEqual(['REF2']);
    const days = await db
      .select({ plate: visitorDays.plate })
      .from(visitorDays)
      .where(inArray(visitorDays.id, [g1!.id, g2!.id]));
    expect(days.map((d) => d.plate).sort()).toEqual([`*${g1!.id}`, `*${g2!.id}`].sort());
  });

  it('anonymises the plates and credential ids of APDS assigned rights that ended before the period', async () => {
    const right = async (apdsId: string, plate: string, endsAt: Date) => {
      const [r] = await db
        .insert(apdsAssignedRights)
        .values({
          operatorId: A,
          apdsId,
          version: 1,
          zoneId,
          plates: [plate],
          credentials: [
            { identifier: { id: plate, className: 'LicensePlate' }, issuer: [{ language: 'en', string: 'TX' }] },
          ],
          startsAt: new Date(endsAt.getTime() - DAY),
          endsAt,
          issuedAt: new Date(endsAt.getTime() - DAY),
          requestHash: apdsId,
        })
        .returning({ id: apdsAssignedRights.id });
      return r!.id;
    };
    const old = await right('partner-old', 'APDSOLD1', ago(13 * 7 + 1));
    const recent = await right('partner-new', 'APDSNEW1', ago(13 * 7 - 1));
    expect(await anonymiseExpiredPlates(db, now)).toBe(1);
    expect(await anonymiseExpiredPlates(db, now)).toBe(0);
    const rows = await db
      .select()
      .from(apdsAssignedRights)
      .where(inArray(apdsAssignedRights.id, [old, recent]));
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(old)).toMatchObject({
      plates: [ANONYMISED_PLATE],
      credentials: [{ identifier: { id: ANONYMISED_PLATE, className: 'LicensePlate' } }],
      apdsId: 'partner-old',
      zoneId,
    });
    expect(JSON.stringify(byId.get(old))).not.toContain('APDSOLD1');
    expect(byId.get(recent)).toMatchObject({ plates: ['APDSNEW1'] });
  });

  it('runs as the job enforcement.retention on the one runner', async () => {
    const runner = createJobRunner(db, { error: (o: unknown) => console.error(o) });
    registerEnforcementJobs(runner);
    expect(Object.keys(await runner.runOnce(now))).toEqual(['enforcement.retention']);
  });
});

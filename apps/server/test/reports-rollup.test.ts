import { eq, getTableColumns, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { applyMigrations, queryRows, type Db, type Executor } from '../src/db/client.ts';
import { foldRollupDeltas } from '../src/reports/index.ts';
import { insertOperatorRow } from './operator-helpers.ts';
import { parkingSessions } from '../src/db/schema/index.ts';
import { concurrently } from './concurrency.ts';
import { freshDatabase } from './helpers.ts';
import { CENTRE, zoneAt } from './parking-helpers.ts';
import { insertZones } from '../src/zones/zone-repository.ts';
import { migrationsUpTo } from './support/migrations.ts';

// The operator's rollups (docs/reports.md#rollups): whatever statement writes parking_sessions,
// operator_hourly_rollups must equal the sums computed here, in JS, from the sessions as they are
// now (a reference written from the rule, not from the SQL). Both databases; races on PostgreSQL.

type Session = typeof parkingSessions.$inferSelect;
const HOUR = 3_600_000;
type Bucket = {
  sessions: number;
  stay: number;
  parking: number;
  fee: number;
  refunded: number;
  discount: number;
  occupied: number;
};
const key = (op: number, zone: number, hour: number) => `${op}/${zone}/${new Date(hour).toISOString()}`;

const TZ = 'America/Chicago';
const localParts = (ms: number) => {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', {
      timeZone: TZ,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(new Date(ms))
      .map((x) => [x.type, x.value]),
  );
  return { day: `${p.year}-${p.month}-${p.day}`, hour: Number(p.hour) };
};

/** The daily rollups as the rule says: the hourly ones summed by the operator's day, seconds parked by its hour. */
function expectedDaily(hourly: Map<string, Bucket>): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  for (const [k, b] of hourly) {
    const [op, zone, hour] = k.split('/');
    const { day, hour: h } = localParts(Date.parse(hour!));
    const dk = `${op}/${zone}/${day}`;
    const d = out.get(dk) ?? { sessions: 0, stay: 0, parking: 0, fee: 0, refunded: 0, discount: 0, occupied: 0 };
    for (const f of Object.keys(b) as (keyof Bucket)[]) d[f] = (d[f] ?? 0) + b[f];
    const hk = `h${String(h).padStart(2, '0')}`;
    d[hk] = (d[hk] ?? 0) + b.occupied;
    out.set(dk, d);
  }
  return out;
}

/** What readers read: the totals views (the folded rollups plus the shares not folded yet), or the rollups alone. */
type Source = 'totals' | 'folded';
const dailyOf = { totals: sql`operator_daily_totals`, folded: sql`operator_daily_rollups` };
const hourlyOf = { totals: sql`operator_hourly_totals`, folded: sql`operator_hourly_rollups` };

async function actualDaily(db: Executor, from: Source = 'totals'): Promise<Map<string, Record<string, number>>> {
  const rows = await queryRows<Record<string, string | number>>(db, sql`SELECT * FROM ${dailyOf[from]}`);
  const out = new Map<string, Record<string, number>>();
  for (const r of rows) {
    const d: Record<string, number> = {
      sessions: Number(r.sessions_started),
      stay: Number(r.stay_seconds),
      parking: Number(r.parking_cents),
      fee: Number(r.fee_cents),
      refunded: Number(r.refunded_cents),
      discount: Number(r.discount_cents),
      occupied: Number(r.occupied_seconds),
    };
    for (let h = 0; h < 24; h++) {
      const v = Number(r[`occupied_h${String(h).padStart(2, '0')}`]);
      if (v !== 0) d[`h${String(h).padStart(2, '0')}`] = v;
    }
    if (Object.values(d).some((v) => v !== 0))
      out.set(`${r.operator_id}/${r.zone_id}/${String(r.day).slice(0, 10)}`, d);
  }
  return out;
}

/** The rollups as the rule says: money, count and stay in the start hour; seconds parked in each hour covered. */
function expected(sessions: Session[]): Map<string, Bucket> {
  const out = new Map<string, Bucket>();
  const at = (k: string) => {
    let b = out.get(k);
    if (!b) out.set(k, (b = { sessions: 0, stay: 0, parking: 0, fee: 0, refunded: 0, discount: 0, occupied: 0 }));
    return b;
  };
  for (const s of sessions) {
    const a = s.startedAt.getTime();
    const b = Math.max((s.endedAt ?? s.endsAt).getTime(), a);
    const first = Math.floor(a / HOUR) * HOUR;
    const start = at(key(s.operatorId, s.zoneId, first));
    start.sessions += 1;
    start.stay += Math.round((b - a) / 1000);
    start.parking += s.parkingCents;
    start.fee += s.feeCents;
    start.refunded += s.refundedCents;
    const p = s.discountPercent;
    start.discount += p >= 1 && p <= 99 ? Math.round((s.parkingCents * p) / (100 - p)) : 0;
    for (let h = first; h === first || h < b; h += HOUR)
      at(key(s.operatorId, s.zoneId, h)).occupied += Math.round((Math.min(b, h + HOUR) - Math.max(a, h)) / 1000);
  }
  return out;
}

async function actual(db: Executor, from: Source = 'totals'): Promise<Map<string, Bucket>> {
  const rows = await queryRows<Record<string, string | number | Date>>(
    db,
    sql`SELECT operator_id, zone_id, hour, sessions_started, stay_seconds, parking_cents, fee_cents, refunded_cents,
               discount_cents, occupied_seconds FROM ${hourlyOf[from]}`,
  );
  const out = new Map<string, Bucket>();
  for (const r of rows) {
    const b = {
      sessions: Number(r.sessions_started),
      stay: Number(r.stay_seconds),
      parking: Number(r.parking_cents),
      fee: Number(r.fee_cents),
      refunded: Number(r.refunded_cents),
      discount: Number(r.discount_cents),
      occupied: Number(r.occupied_seconds),
    };
    // An hour whose sessions all went keeps a row of zeros: the same as no row.
    if (Object.values(b).some((v) => v !== 0))
      out.set(key(Number(r.operator_id), Number(r.zone_id), new Date(r.hour as string).getTime()), b);
  }
  return out;
}

const pendingShares = async (db: Executor) =>
  Number((await queryRows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM operator_rollup_deltas`))[0]!.n);

/**
 * The totals views equal the rule, with whatever shares are not folded yet; then, folded, the
 * rollup tables alone equal it too and no share is left.
 */
async function expectRollupsMatch(db: Db) {
  const sessions = await db.select().from(parkingSessions);
  const want = expected(sessions);
  for (const [k, b] of want) if (Object.values(b).every((v) => v === 0)) want.delete(k);
  const daily = expectedDaily(want);
  for (const [k, d] of daily) {
    for (const f of Object.keys(d)) if (d[f] === 0 && f.startsWith('h')) delete d[f];
    if (Object.values(d).every((v) => v === 0)) daily.delete(k);
  }
  expect(Object.fromEntries(await actual(db))).toEqual(Object.fromEntries(want));
  expect(Object.fromEntries(await actualDaily(db))).toEqual(Object.fromEntries(daily));
  await foldRollupDeltas(db);
  expect(await pendingShares(db)).toBe(0);
  expect(Object.fromEntries(await actual(db, 'folded'))).toEqual(Object.fromEntries(want));
  expect(Object.fromEntries(await actualDaily(db, 'folded'))).toEqual(Object.fromEntries(daily));
}

async function setUp(db: Executor) {
  // In the columns every release has had: the migration test sets up on the database 0030 left.
  const operatorId = await insertOperatorRow(db, 'Rollups', TZ);
  await insertZones(db, operatorId, [zoneAt('R1', '1 Roll St', CENTRE), zoneAt('R2', '2 Roll St', CENTRE)]);
  const zoneIds = (
    await queryRows<{ id: number }>(
      db,
      sql`SELECT id FROM zones WHERE operator_id = ${operatorId} ORDER BY zone_number`,
    )
  ).map((z) => Number(z.id));
  return { operatorId, zoneIds };
}

let plate = 0;
const session = (
  operatorId: number,
  zoneId: number,
  startedAt: Date,
  minutes: number,
  extra: Partial<Session> = {},
) => ({
  guestPhone: '5125550100',
  operatorId,
  zoneId,
  vehicleMake: 'TOYOTA',
  vehicleModel: 'CAMRY',
  plate: `RL${++plate}`,
  plateState: 'TX',
  startedAt,
  endsAt: new Date(startedAt.getTime() + minutes * 60_000),
  durationMinutes: minutes,
  initialMinutes: minutes,
  rateCents: 250,
  parkingCents: Math.ceil((minutes * 250) / 60),
  feeCents: 35,
  paidVia: 'Card',
  ...extra,
});

const database = await freshDatabase();
afterAll(() => database.close());
const { db } = database;
const { operatorId, zoneIds } = await setUp(db);
const [z1, z2] = zoneIds as [number, number];
const T = Date.parse('2026-03-07T22:37:12.345Z'); // a Saturday evening in Austin, across midnight UTC

describe('the operator’s hourly rollups, kept by the database', () => {
  it('follow inserts (one and many), updates of the fields they sum, deletes and truncate', async () => {
    await db.insert(parkingSessions).values(session(operatorId, z1, new Date(T), 150));
    await expectRollupsMatch(db);
    // Many in one statement, a discount, a session on an hour boundary, one ended at its start.
    await db
      .insert(parkingSessions)
      .values([
        session(operatorId, z1, new Date(T + 5 * 60_000), 45, { discountPercent: 10, parkingCents: 169 }),
        session(operatorId, z2, new Date(Date.parse('2026-03-08T01:00:00Z')), 60),
        session(operatorId, z2, new Date(T - 26 * HOUR), 1440),
        session(operatorId, z1, new Date(T + HOUR), 30, { endedAt: new Date(T + HOUR), status: 'ended' }),
      ]);
    await expectRollupsMatch(db);
    const [first] = await db.select().from(parkingSessions).orderBy(parkingSessions.id).limit(1);
    // Extend: more minutes, more money; Stop early with a refund; an update that moves nothing summed.
    await db
      .update(parkingSessions)
      .set({ endsAt: new Date(T + 240 * 60_000), durationMinutes: 240, parkingCents: 1000 })
      .where(eq(parkingSessions.id, first!.id));
    await expectRollupsMatch(db);
    await db
      .update(parkingSessions)
      .set({ endedAt: new Date(T + 61 * 60_000), status: 'ended', refundedCents: 700 })
      .where(eq(parkingSessions.id, first!.id));
    await expectRollupsMatch(db);
    const before = await actual(db);
    await db.update(parkingSessions).set({ reminderSentAt: new Date() });
    expect(await actual(db)).toEqual(before);
    // A zone change (Amend) moves the session's share to the other zone.
    await db.update(parkingSessions).set({ zoneId: z2 }).where(eq(parkingSessions.id, first!.id));
    await expectRollupsMatch(db);
    await db.delete(parkingSessions).where(eq(parkingSessions.zoneId, z2));
    await expectRollupsMatch(db);
    expect((await actual(db)).size).toBeGreaterThan(0);
    await db.execute(sql`TRUNCATE parking_sessions CASCADE`);
    expect((await actual(db)).size).toBe(0);
    expect((await actualDaily(db)).size).toBe(0);
  });

  it('stay right when many sessions of the same hours are written at once', async () => {
    await concurrently(20, (i) =>
      db.insert(parkingSessions).values(session(operatorId, i % 2 ? z1 : z2, new Date(T + i * 1000), 90 + i)),
    );
    await concurrently(20, (i) =>
      db
        .update(parkingSessions)
        .set({ refundedCents: i })
        .where(sql`${parkingSessions.id} = (SELECT id FROM parking_sessions ORDER BY id OFFSET ${i} LIMIT 1)`),
    );
    await expectRollupsMatch(db);
  });
});

describe('the rollup triggers never deadlock', () => {
  it('50 concurrent Start, Stop, Extend and zone changes across 5 zones in random order, each on a session of its own', async () => {
    await db.execute(sql`TRUNCATE parking_sessions CASCADE`);
    await insertZones(
      db,
      operatorId,
      [3, 4, 5].map((n) => zoneAt(`R${n}`, `${n} Roll St`, CENTRE)),
    );
    const zones = (
      await queryRows<{ id: number }>(
        db,
        sql`SELECT id FROM zones WHERE operator_id = ${operatorId} ORDER BY zone_number`,
      )
    ).map((z) => Number(z.id));
    expect(zones).toHaveLength(5);
    // A seeded shuffle: the same random order on every run, so a failure repeats.
    let seed = 29;
    const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    const zoneOf = () => zones[rand(zones.length)]!;
    // Sessions running across the zones and the hours around T (several hourly and daily rows each).
    // Each write below has sessions of its own, as Start, Stop, Extend and Amend do (one session a
    // transaction): a wait can only be on the rollups' rows, which is what is tested.
    const running = await db
      .insert(parkingSessions)
      .values(
        Array.from({ length: 60 }, (_, i) =>
          session(operatorId, zoneOf(), new Date(T - rand(180) * 60_000), 60 + i * 7),
        ),
      )
      .returning({ id: parkingSessions.id });
    const ids = running.map((r) => r.id);
    for (let i = ids.length - 1; i > 0; i--) {
      const j = rand(i + 1);
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    const ops = Array.from({ length: 50 }, (_, i) => ({
      kind: i % 5,
      a: ids[i]!,
      z: zoneOf(),
      start: T + rand(120) * 60_000,
    }));
    const write = async (op: (typeof ops)[number], i: number) => {
      switch (op.kind) {
        case 0: // Start
          await db.insert(parkingSessions).values(session(operatorId, op.z, new Date(op.start), 30 + i));
          return;
        case 1: // Stop, with the unused minutes refunded
          await db
            .update(parkingSessions)
            .set({ endedAt: new Date(T + i * 60_000), status: 'ended', refundedCents: i })
            .where(eq(parkingSessions.id, op.a));
          return;
        case 2: // Extend
          await db
            .update(parkingSessions)
            .set({ endsAt: new Date(T + (200 + i) * 60_000), durationMinutes: 300 + i, parkingCents: 500 + i })
            .where(eq(parkingSessions.id, op.a));
          return;
        case 3: // A zone change (Amend): the session's share moves from one zone's rows to another's
          await db.update(parkingSessions).set({ zoneId: op.z }).where(eq(parkingSessions.id, op.a));
          return;
        default: // A zone change that also moves the hours (the old zone's rows and the new one's, several hours each)
          await db
            .update(parkingSessions)
            .set({ zoneId: op.z, startedAt: new Date(op.start), endsAt: new Date(op.start + (90 + i) * 60_000) })
            .where(eq(parkingSessions.id, op.a));
      }
    };
    await concurrently(50, async (i) => {
      try {
        await write(ops[i]!, i);
      } catch (err) {
        // The database's own words (a deadlock is 40P01), not the driver's "Failed query".
        const cause = (err as { cause?: { code?: string; message?: string } }).cause;
        throw new Error(`${cause?.code ?? ''} ${cause?.message ?? (err as Error).message}`, { cause: err });
      }
    });
    await expectRollupsMatch(db);
  });
});

describe('the shares the triggers append, folded into the rollups', () => {
  it('a write appends its shares and locks no rollup row: two transactions writing two zones in opposite order both commit', async () => {
    await db.execute(sql`TRUNCATE parking_sessions CASCADE`);
    // Each transaction writes a session in one zone, waits for the other to have written, then
    // writes in the other zone. With rollup rows upserted by the triggers this deadlocked (40P01).
    let wrote = 0;
    const bothWrote = async () => {
      wrote += 1;
      for (let i = 0; i < 200 && wrote < 2; i++) await new Promise((r) => setTimeout(r, 10));
    };
    const pair = (first: number, second: number, at: number) =>
      db.transaction(async (tx) => {
        await tx.insert(parkingSessions).values(session(operatorId, first, new Date(at), 60));
        await bothWrote();
        await tx.insert(parkingSessions).values(session(operatorId, second, new Date(at), 60));
      });
    await Promise.all([pair(z1, z2, T), pair(z2, z1, T + 1000)]);
    expect(await pendingShares(db)).toBeGreaterThanOrEqual(4);
    await expectRollupsMatch(db);
  });

  it('folds in batches, and folds running beside writes and each other change no total', async () => {
    await db.execute(sql`TRUNCATE parking_sessions CASCADE`);
    // 30 statements of one session each, across three hours: a share per statement and hour.
    await concurrently(30, (i) =>
      db.insert(parkingSessions).values(session(operatorId, i % 2 ? z1 : z2, new Date(T + i * 1000), 150)),
    );
    const pending = await pendingShares(db);
    expect(pending).toBeGreaterThanOrEqual(60);
    const before = await actual(db);
    // Batches of 7: the fold goes on until none is left (and says how many it moved).
    expect(await foldRollupDeltas(db, 7)).toBe(pending);
    expect(await pendingShares(db)).toBe(0);
    expect(await actual(db)).toEqual(before);
    await concurrently(24, async (i) => {
      if (i % 3 === 0) await foldRollupDeltas(db, 2);
      else await db.insert(parkingSessions).values(session(operatorId, i % 2 ? z1 : z2, new Date(T + i * 60_000), 45));
    });
    await expectRollupsMatch(db);
  });
});

describe('migration 0031', () => {
  it('sums the sessions written before it', async () => {
    const old = await freshDatabase({ migrationsFolder: migrationsUpTo('0030_price_event_cancel') });
    try {
      const ids = await setUp(old.db);
      // Only the columns the rows name: drizzle's insert would name every column of today's table,
      // and a later migration's columns (0057's card_customer_ref) are not in a database of 0030.
      for (const row of [
        session(ids.operatorId, ids.zoneIds[0]!, new Date(T), 150, { refundedCents: 100 }),
        session(ids.operatorId, ids.zoneIds[1]!, new Date(T - 3 * HOUR), 600, { discountPercent: 10 }),
      ]) {
        const columns = getTableColumns(parkingSessions);
        const entries = Object.entries(row) as [keyof typeof columns, unknown][];
        await old.db.execute(
          sql`insert into parking_sessions (${sql.join(
            entries.map(([k]) => sql.identifier(columns[k].name)),
            sql`, `,
          )}) values (${sql.join(
            entries.map(([, v]) => sql`${v instanceof Date ? v.toISOString() : v}`),
            sql`, `,
          )})`,
        );
      }
      await applyMigrations(old);
      await expectRollupsMatch(old.db);
      expect((await actual(old.db)).size).toBeGreaterThan(2);
    } finally {
      await old.close();
    }
  });
});

// Start's statement must look the vehicle's running session up by the vehicle, however many
// sessions run and whatever the planner's statistics say. Planned when the statistics still said
// that no session ran (autovacuum had not analysed the table since), its check "this vehicle has no
// running session" joined the quote to every running session and filtered them one by one: the
// parking bench measured Start's PostgreSQL CPU growing with the running sessions (2.2 ms a Start
// at 12,000 of them, 0.6 ms after). Both databases.
import { sql, TransactionRollbackError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Quote } from '@parkit/contract';
import { startSql } from '../src/parking/start-statement.ts';
import { buildTestApp, registerAndSignIn } from './helpers.ts';
import { addVehicle, addZone, credit, quote } from './parking-helpers.ts';
import { explainJson, planNodes, type PlanNode } from './support/query-plan.ts';

const { app, database } = await buildTestApp();
const db = database.db;
const ENDED = 1500;
const RUNNING = 300;

describe('Start’s statement with many sessions running', () => {
  it('reads the vehicle’s running session by the vehicle, one index entry, not every running session', async () => {
    const zone = await addZone(db, '7403');
    const m = await registerAndSignIn(app);
    await credit(db, m.memberId, 1000);
    const car = await addVehicle(app, m);
    const q = (await quote(app, m, { ZoneId: zone, VehicleId: car, DurationMinutes: 60 })).json<Quote>().QuoteId;
    // A table in use: ENDED sessions of other vehicles, and statistics taken while none of them
    // ran; then RUNNING sessions of other vehicles start.
    const park = (status: 'ended' | 'active', from: number, count: number) =>
      db.execute(sql`
        with v as (
          insert into vehicles (member_id, make_id, model_id, plate, plate_state, color_id, year)
          select ${m.memberId}, make_id, model_id, 'RUN' || g, 'TX', color_id, year
          from vehicles cross join generate_series(${from}::int, ${from + count - 1}::int) g where id = ${car}
          returning id, plate)
        insert into parking_sessions (member_id, operator_id, zone_id, vehicle_id, vehicle_make, vehicle_model, plate, plate_state,
          started_at, ends_at, ended_at, duration_minutes, initial_minutes, rate_cents, parking_cents, fee_cents, paid_via, status, updated_at)
        select ${m.memberId}, z.operator_id, z.id, v.id, 'Make', 'Model', v.plate, 'TX', now() - interval '1 day',
          now() - interval '1 day' + interval '1 hour', case when ${status} = 'ended' then now() - interval '1 day' + interval '1 hour' end,
          60, 60, 250, 250, 35, 'Wallet', ${status}, now()
        from v, zones z where z.id = ${zone}`);
    // In statements of 500: each row's trigger holds an advisory lock until its statement commits.
    for (let i = 0; i < ENDED; i += 500) await park('ended', i + 1, 500);
    await db.execute(sql`analyze parking_sessions`);
    await park('active', ENDED + 1, RUNNING);

    const statement = startSql(m.memberId, q, false, `plan-${q}`, new Date(), { requestHash: 'h', sessionVersion: 0 });
    // EXPLAIN ANALYZE runs the Start: inside a transaction rolled back, so nothing stays.
    let plan: PlanNode | undefined;
    await db
      .transaction(async (tx) => {
        plan = await explainJson(tx as unknown as typeof db, statement, { analyze: true });
        tx.rollback();
      })
      .catch((err: unknown) => {
        if (!(err instanceof TransactionRollbackError)) throw err;
      });
    const reads = planNodes(plan!).filter(
      (n) =>
        n['Node Type'] !== 'ModifyTable' &&
        (n['Relation Name'] === 'parking_sessions' || n['Index Name']?.startsWith('parking_sessions_')),
    );
    expect(reads.length, 'Start reads the vehicle’s sessions').toBeGreaterThan(0);
    for (const n of reads) {
      expect(n['Index Cond'], `${n['Node Type']} ${n['Index Name'] ?? ''}`).toMatch(/vehicle_id/);
      expect(n['Actual Rows'], n['Index Name']).toBeLessThanOrEqual(1);
    }
  });
});

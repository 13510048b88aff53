import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  OPERATOR_MESSAGES,
  OPERATOR_REPORT_MESSAGES as M,
  type OperatorDashboard,
  type OperatorReport,
  type StopResponse,
} from '@parkit/contract';
import { as, expectFieldErrors, expectRefused, registerAndSignIn } from '../../helpers.ts';
import { concurrently, count } from '../../concurrency.ts';
import { queryRows } from '../../../src/db/client.ts';
import { addDays, localDay } from '../../../src/reports/index.ts';
import { operatorById } from '../../../src/zones/index.ts';
import { twoOperators } from '../../operator-helpers.ts';
import { addVehicle, addZone, credit, pay, quote, startSession } from '../../parking-helpers.ts';

// The operator's dashboard and reports (docs/reports.md): what a driver pays shows at once, the
// report reconciles with the ledger to the cent, its CSVs hold the rows behind it, every role
// reads it, bad input is refused, and another operator's ids are not found.
const {
  app,
  db,
  A,
  B,
  owner,
  ownerB,
  staff: { analyst },
} = await twoOperators('Other Reports Parking', ['analyst']);
const timezone = (await operatorById(db, A))!.timezone;
const driver = await registerAndSignIn(app);
await credit(db, driver.memberId, 50_000);
const zone = await addZone(db, `RP${process.pid % 1000}`, { capacity: 4 });
const otherZone = await addZone(db, `RQ${process.pid % 1000}`, { capacity: 6 });
const zoneOfB = (
  await queryRows<{ id: number }>(
    db,
    sql`INSERT INTO zones (operator_id, zone_number, name, address, city, state, zip, lat, lng, kind, rate_cents,
          max_stay_minutes, paid_days, paid_from_minute, paid_until_minute, capacity)
        SELECT ${B}, 'B1', name, address, city, state, zip, lat, lng, kind, rate_cents, max_stay_minutes, paid_days,
          paid_from_minute, paid_until_minute, capacity FROM zones WHERE id = ${zone} RETURNING id`,
  )
)[0]!.id;

type Who = Parameters<typeof as>[1];
const get = (who: Who, url: string) => as(app, who, { method: 'GET', url });
const today = () => localDay(new Date(), timezone);
const range = (zones?: number[]) =>
  `From=${addDays(today(), -1)}&To=${addDays(today(), 1)}${zones ? `&Zones=${zones.join(',')}` : ''}`;
const dashboard = async (who: Who = owner) => {
  const res = await get(who, `/api/Operator/${A}/Dashboard`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<OperatorDashboard>();
};
const report = async (q = range(), who: Who = owner) => {
  const res = await get(who, `/api/Operator/${A}/Report?${q}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<OperatorReport>();
};
/** What the operator's sessions took from wallets, from the ledger alone: charges less refunds. */
const ledgerTakings = () =>
  count(
    db,
    sql`SELECT coalesce(-sum(amount_cents), 0) AS n FROM ledger_entries
        WHERE kind IN ('parking', 'refund') AND reference ~ '^session:[0-9]+'
          AND split_part(reference, ':', 2)::int IN (SELECT id FROM parking_sessions WHERE operator_id = ${A})`,
  );
const csvRows = (body: string) => {
  const [head, ...rows] = body.trim().split('\r\n');
  const names = head!.split(',');
  return rows.map((r) => Object.fromEntries(r.split(',').map((v, i) => [names[i], v])));
};

describe('the dashboard', () => {
  it('shows a session the moment a driver parks: running now, the zone’s occupancy, today’s revenue and the trend', async () => {
    const before = await dashboard();
    const s = await startSession(app, driver, { zoneId: zone, vehicleId: await addVehicle(app, driver), minutes: 60 });
    const after = await dashboard(analyst);
    const paid = Math.round(s.AmountPaid * 100);
    expect(after.RunningSessions).toBe(before.RunningSessions + 1);
    const z = after.Zones.find((x) => x.ZoneId === zone)!;
    expect(z).toMatchObject({ Running: 1, Capacity: 4, Occupancy: 0.25 });
    expect(after.Today.Sessions).toBe(before.Today.Sessions + 1);
    expect(after.Today.RevenueCents).toBe(before.Today.RevenueCents + paid);
    expect(after.Trend).toHaveLength(30);
    expect(after.Trend.at(-1)).toEqual({
      Date: today(),
      Sessions: after.Today.Sessions,
      RevenueCents: after.Today.RevenueCents,
    });
    expect(after.Timezone).toBe(timezone);
  });
});

describe('the report', () => {
  it('reconciles with the ledger to the cent through starts, extensions, stops and refunds, and its CSV holds every row', async () => {
    const v = await addVehicle(app, driver);
    const s = await startSession(app, driver, { zoneId: otherZone, vehicleId: v, minutes: 90 });
    const q = await quote(app, driver, { SessionId: s.SessionId, DurationMinutes: 30 });
    expect(q.statusCode, q.body).toBe(200);
    expect((await pay(app, driver, 'Extend', { QuoteId: q.json<{ QuoteId: string }>().QuoteId })).statusCode).toBe(200);
    const stop = await as(app, driver, {
      method: 'POST',
      url: '/api/Parking/Stop',
      payload: { SessionId: s.SessionId },
    });
    expect(stop.json<StopResponse>().RefundAmount).toBeGreaterThan(0);

    const r = await report();
    const ledger = await ledgerTakings();
    expect(ledger).toBeGreaterThan(0);
    expect(r.RevenueCents).toBe(ledger);
    expect(r.RevenueCents).toBe(r.ParkingCents + r.FeeCents - r.RefundedCents);
    expect(r.RefundedCents).toBeGreaterThan(0);
    expect(r.Days).toBe(3);
    expect(r.ByHourOfDay).toHaveLength(24);
    expect(r.ByDayOfWeek).toHaveLength(7);
    expect(r.ByZone.reduce((a, z) => a + z.RevenueCents, 0)).toBe(r.RevenueCents);
    expect(r.ByDay.reduce((a, d) => a + d.RevenueCents, 0)).toBe(r.RevenueCents);
    expect(r.AverageStayMinutes).toBeGreaterThan(0);

    const csv = await get(owner, `/api/Operator/${A}/Report/Sessions.csv?${range()}`);
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toMatch(/^attachment; filename="parkit-report-sessions-/);
    const rows = csvRows(csv.body);
    expect(rows).toHaveLength(r.Sessions);
    expect(rows.reduce((a, x) => a + Number(x.RevenueCents), 0)).toBe(r.RevenueCents);
    expect(rows.find((x) => Number(x.SessionId) === s.SessionId)).toMatchObject({ Status: 'ended' });

    const hours = csvRows((await get(analyst, `/api/Operator/${A}/Report/Hours.csv?${range()}`)).body);
    expect(hours.reduce((a, x) => a + Number(x.ParkingCents), 0)).toBe(r.ParkingCents);
    expect(hours.reduce((a, x) => a + Number(x.SessionsStarted), 0)).toBe(r.Sessions);

    // A console in Hindi or Spanish gets the headers in its language; the rows are the same.
    const inLanguage = async (path: string, lang: string) =>
      (
        await as(app, owner, {
          method: 'GET',
          url: `/api/Operator/${A}/Report/${path}?${range()}`,
          headers: { 'accept-language': lang },
        })
      ).body.split('\r\n');
    const [hiHead, ...hiRows] = await inLanguage('Sessions.csv', 'hi-IN,hi;q=0.9');
    expect(hiHead!.split(',')).toEqual(expect.arrayContaining(['सत्र आईडी', 'राजस्व (सेंट)']));
    expect(hiHead!.split(',')).toHaveLength(11);
    expect(hiRows).toEqual(csv.body.split('\r\n').slice(1));
    const [esHead] = await inLanguage('Hours.csv', 'es-US');
    expect(esHead!.split(',')).toEqual(expect.arrayContaining(['Hora (UTC)', 'Sesiones iniciadas']));
    expect(csv.body.split('\r\n')[0]).toBe(
      'SessionId,ZoneNumber,StartedAt,EndedAt,Status,StayMinutes,ParkingCents,FeeCents,RefundedCents,DiscountCents,RevenueCents',
    );
  });

  it('reads only the zones asked for, and the zone’s occupancy is time parked over its spaces', async () => {
    const all = await report();
    const one = await report(range([zone]));
    expect(one.ByZone.map((z) => z.ZoneId)).toEqual([zone]);
    expect(one.Capacity).toBe(4);
    expect(one.Sessions).toBe(all.ByZone.find((z) => z.ZoneId === zone)!.Sessions);
    expect(one.Occupancy).toBeGreaterThan(0);
    const csv = csvRows((await get(owner, `/api/Operator/${A}/Report/Sessions.csv?${range([zone])}`)).body);
    expect(csv.length).toBe(one.Sessions);
  });

  it('stays true while many drivers park at once', async () => {
    const drivers = await Promise.all(Array.from({ length: 6 }, () => registerAndSignIn(app)));
    for (const d of drivers) await credit(db, d.memberId, 5_000);
    const vehicles = await Promise.all(drivers.map((d) => addVehicle(app, d)));
    await concurrently(6, (i) =>
      startSession(app, drivers[i]!, { zoneId: zone, vehicleId: vehicles[i]!, minutes: 30 }),
    );
    expect((await report()).RevenueCents).toBe(await ledgerTakings());
  });

  it('refuses bad ranges and zone lists with a clear message', async () => {
    const refused = (res: Awaited<ReturnType<typeof get>>, field: string, message: string) => {
      expectRefused(res, 400, field);
      expectFieldErrors(res, { [field]: message });
    };
    const url = (q: string) => `/api/Operator/${A}/Report?${q}`;
    refused(await get(owner, url('From=2026-02-30&To=2026-03-01')), 'From', M.dateFormat);
    refused(await get(owner, url('From=2026-03-02&To=2026-03-01')), 'To', M.dateRange);
    refused(await get(owner, url('From=2024-01-01&To=2026-03-01')), 'To', M.rangeTooLong);
    refused(await get(owner, url('From=2026-03-01&To=2026-03-01&Zones=1;2')), 'Zones', M.zonesFormat);
    refused(await get(owner, `/api/Operator/${A}/Report/Sessions.csv?From=x&To=2026-03-01`), 'From', M.dateFormat);
  });
});

describe('who may read it', () => {
  it('another operator’s zone ids and another operator’s reports are not found; a driver is refused', async () => {
    expectRefused(
      await get(owner, `/api/Operator/${A}/Report?${range([zone, zoneOfB])}`),
      404,
      undefined,
      M.zoneNotFound,
    );
    expectRefused(await get(owner, `/api/Operator/${A}/Report/Sessions.csv?${range([zoneOfB])}`), 404);
    expectRefused(await get(owner, `/api/Operator/${A}/Report/Hours.csv?${range([zoneOfB])}`), 404);
    expectRefused(
      await get(ownerB, `/api/Operator/${A}/Dashboard`),
      404,
      undefined,
      OPERATOR_MESSAGES.operatorNotFound,
    );
    expectRefused(await get(ownerB, `/api/Operator/${A}/Report?${range()}`), 404);
    expectRefused(await get(driver, `/api/Operator/${A}/Dashboard`), 403, undefined, OPERATOR_MESSAGES.staffOnly);
    // B's own dashboard shows none of A's sessions.
    const b = (await get(ownerB, `/api/Operator/${B}/Dashboard`)).json<OperatorDashboard>();
    expect(b.RunningSessions).toBe(0);
    expect(b.Today.RevenueCents).toBe(0);
    expect(b.Zones.map((z) => z.ZoneId)).toEqual([zoneOfB]);
  });
});

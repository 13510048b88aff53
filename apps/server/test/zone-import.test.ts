import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { zones } from '../src/db/schema/index.ts';
import { defaultOperatorId, operatorById } from '../src/zones/operator-repository.ts';
import { ZoneFileError } from '../src/zones/zone-file.ts';
import { importZoneFile, parsePaidDays } from '../src/zones/zone-import.ts';
import { freshDatabase } from './helpers.ts';
import { cliDatabaseEnv, runScript } from './support/cli.ts';

const database = await freshDatabase();
const db = database.db;
const operator = (await operatorById(db, await defaultOperatorId(db)))!;
const dir = mkdtempSync(join(tmpdir(), 'parkit-zone-import-'));
afterAll(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Writes a file to the temp folder and imports it as the CLI would. */
function importFile(name: string, content: string, skipInvalid = false) {
  const path = join(dir, name);
  writeFileSync(path, content);
  return importZoneFile(db, operator, readFileSync(path, 'utf8'), { fileName: name, skipInvalid });
}
const numbers = async () =>
  (await db.select({ n: zones.zoneNumber }).from(zones).orderBy(asc(zones.zoneNumber))).map((r) => r.n);

const HEADER =
  'zone_number,name,address,city,state,zip,lat,lng,kind,rate,max_stay_minutes,paid_days,paid_from,paid_until,capacity';

describe('importing a zone file', () => {
  it('imports a CSV file, with defaults for the optional columns', async () => {
    const csv = [
      HEADER,
      '5001,"Congress Ave, 100 block",117 Congress Ave,Austin,tx,78701,30.2641,-97.7436,street,2.50,120,Mon-Fri,08:00,18:00,14',
      '5002,,210 Lavaca St,,,,30.2660,-97.7460,LOT,4,720,,,,',
      '5003,Late meters,600 Red River St,Austin,TX,78701-1234,30.2675,-97.7365,street,1.75,180,"5,6",22:00,02:00,8',
    ].join('\r\n');
    const report = await importFile('zones.csv', csv);
    expect(report).toMatchObject({ format: 'csv', rows: 3, imported: 3, refused: [] });
    const [a, b, c] = await db
      .select()
      .from(zones)
      .where(eq(zones.operatorId, operator.id))
      .orderBy(asc(zones.zoneNumber));
    expect(a).toMatchObject({
      zoneNumber: '5001',
      name: 'Congress Ave, 100 block',
      state: 'TX',
      rateCents: 250,
      paidDays: [1, 2, 3, 4, 5],
      paidFromMinute: 480,
      paidUntilMinute: 1080,
      capacity: 14,
    });
    expect(b).toMatchObject({
      name: '210 Lavaca St',
      city: 'Austin',
      state: 'TX',
      zip: '',
      kind: 'lot',
      rateCents: 400,
      paidDays: [1, 2, 3, 4, 5, 6, 7],
      paidFromMinute: 0,
      paidUntilMinute: 1440,
      capacity: 0,
    });
    expect(c).toMatchObject({ zip: '78701-1234', paidDays: [5, 6], paidFromMinute: 1320, paidUntilMinute: 120 });
  });

  it('imports GeoJSON Points, taking the position from the geometry', async () => {
    const feature = (n: string, lng: number, lat: number, extra: object = {}) => ({
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [lng, lat] },
      properties: {
        zone_number: n,
        address: `${n} Rainey St`,
        rate_cents: 300,
        max_stay_minutes: 240,
        paid_days: [1, 2, 3],
        ...extra,
      },
    });
    const doc = {
      type: 'FeatureCollection',
      features: [
        feature('6001', -97.7385, 30.2585),
        feature('6002', -97.7388, 30.259, { kind: 'garage', paid_from: '07:00', paid_until: '00:00' }),
      ],
    };
    const report = await importFile('zones.geojson', JSON.stringify(doc));
    expect(report).toMatchObject({ format: 'geojson', rows: 2, imported: 2, refused: [] });
    const [z] = await db.select().from(zones).where(eq(zones.zoneNumber, '6002'));
    expect(z).toMatchObject({
      lat: 30.259,
      lng: -97.7388,
      kind: 'garage',
      rateCents: 300,
      paidDays: [1, 2, 3],
      paidFromMinute: 420,
      paidUntilMinute: 1440,
    });
  });

  it('refuses bad rows with their row number and reason, and then imports nothing', async () => {
    const before = await numbers();
    const csv = [
      HEADER,
      '7001,Fine,1 Good St,Austin,TX,78701,30.26,-97.74,street,2,120,,,,',
      '7002,Too far north,2 Good St,Austin,TX,78701,95,-97.74,street,2,120,,,,',
      '7003,No address,,Austin,TX,78701,30.26,-97.74,street,2,120,,,,',
      '7004,Boat,4 Good St,Austin,TX,78701,30.26,-97.74,boat,2,120,,,,',
      '7005,Fractions of cents,5 Good St,Austin,TX,78701,30.26,-97.74,street,2.555,120,,,,',
      '7006,Odd hours,6 Good St,Austin,TX,78701,30.26,-97.74,street,2,120,,08:00,25:00,',
      '7001,Twice,7 Good St,Austin,TX,78701,30.26,-97.74,street,2,120,,,,',
      '5001,Already there,8 Good St,Austin,TX,78701,30.26,-97.74,street,2,120,,,,',
      '7009,Short row,9 Good St',
      '7010,Bad days,10 Good St,Austin,TX,78701,30.26,-97.74,street,2,120,Mon-Funday,,,',
      '7011,No rate,11 Good St,Austin,TX,78701,30.26,-97.74,street,,0,,,,-3',
    ].join('\n');
    const report = await importFile('bad.csv', csv);
    expect(report.imported).toBe(0);
    expect(report.refused.map((r) => [r.row, r.zoneNumber])).toEqual([
      [3, '7002'],
      [4, '7003'],
      [5, '7004'],
      [6, '7005'],
      [7, '7006'],
      [8, '7001'],
      [9, '5001'],
      [10, '7009'],
      [11, '7010'],
      [12, '7011'],
    ]);
    const reason = (row: number) => report.refused.find((r) => r.row === row)?.reason;
    expect(reason(3)).toBe('lat must be between -90 and 90');
    expect(reason(4)).toBe('address is required');
    expect(reason(5)).toBe('kind must be street, lot or garage');
    expect(reason(6)).toMatch(/rate must be dollars/);
    expect(reason(7)).toMatch(/paid_from and paid_until/);
    expect(reason(8)).toBe('zone_number 7001 is already on row 2');
    expect(reason(9)).toBe('zone_number 5001 already exists for this operator');
    expect(reason(10)).toBe('has 3 fields, the header has 15');
    expect(reason(11)).toMatch(/paid_days/);
    expect(reason(12)).toBe('max_stay_minutes must be between 1 and 10080; capacity must be between 0 and 100000');
    expect(await numbers()).toEqual(before);
  });

  it('imports the valid rows with skipInvalid and still reports the others', async () => {
    const csv = [
      HEADER,
      '8001,Ok,1 Good St,,,,30.26,-97.74,,2,120,,,,',
      '8002,Bad,2 Good St,,,,30.26,-200,,2,120,,,,',
      '8003,Ok,3 Good St,,,,30.26,-97.74,,2,60,,,,',
    ].join('\n');
    const report = await importFile('some-bad.csv', csv, true);
    expect(report).toMatchObject({
      imported: 2,
      refused: [{ row: 3, zoneNumber: '8002', reason: 'lng must be between -180 and 180' }],
    });
    expect(await numbers()).toEqual(expect.arrayContaining(['8001', '8003']));
    expect(await numbers()).not.toContain('8002');
  });

  it('writes a large file in batches, in one go', async () => {
    // A grid, not a line: points on one meridian have zero-volume boxes, which cube's GiST splits badly.
    const rows = Array.from(
      { length: 1234 },
      (_, i) =>
        `${90000 + i},,${i} Batch St,,,,${30 + (i % 37) / 1000},${-97.7 - Math.floor(i / 37) / 1000},,1.5,120,,,,`,
    );
    const report = await importFile('many.csv', [HEADER, ...rows].join('\n'));
    expect(report.imported).toBe(1234);
    expect((await numbers()).filter((n) => n.startsWith('9')).length).toBe(1234);
  });

  it('refuses a file that is not a zone file, writing nothing', async () => {
    await expect(importFile('x.csv', 'zone_number,address\n1,Main St')).rejects.toThrow(ZoneFileError);
    await expect(importFile('x.geojson', '{"type":"Feature"}')).rejects.toThrow(/FeatureCollection/);
    await expect(importFile('x.json', 'not json')).rejects.toThrow(/not valid JSON/);
    const report = await importFile(
      'geometry.geojson',
      JSON.stringify({
        type: 'FeatureCollection',
        features: [{ type: 'Feature', geometry: null, properties: { zone_number: 'A1' } }],
      }),
    );
    expect(report.refused).toEqual([
      { row: 1, zoneNumber: 'A1', reason: 'geometry must be a Point with [longitude, latitude]' },
    ]);
  });

  it('reads paid days in the usual spellings', () => {
    expect(parsePaidDays('Mon-Fri')).toEqual([1, 2, 3, 4, 5]);
    expect(parsePaidDays('sat sun')).toEqual([6, 7]);
    expect(parsePaidDays('1,3;5')).toEqual([1, 3, 5]);
    expect(parsePaidDays('daily')).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(parsePaidDays('none')).toEqual([]);
    expect(parsePaidDays([7, 1])).toEqual([1, 7]);
    for (const bad of ['Fri-Mon', '8', 'someday', [0], '1-2-3', 5]) expect(parsePaidDays(bad)).toBeNull();
  });
});

describe('npm run zones:import', () => {
  it('imports a file, refuses a bad one with exit code 1, and names the rows', { timeout: 120_000 }, async () => {
    const { env, drop } = await cliDatabaseEnv(dir);
    const cli = runScript('zones-import.ts', env);
    try {
      const good = join(dir, 'cli-good.csv');
      writeFileSync(
        good,
        [HEADER, '1,,1 Main St,,,,30.26,-97.74,,2,120,,,,', '2,,2 Main St,,,,30.27,-97.74,,2,120,,,,'].join('\n'),
      );
      const bad = join(dir, 'cli-bad.csv');
      writeFileSync(
        bad,
        [HEADER, '3,,3 Main St,,,,30.26,-97.74,,2,120,,,,', '1,,again,,,,30.26,-97.74,,2,120,,,,'].join('\n'),
      );

      const first = await cli(good);
      expect(first.out).toContain('Imported 2 zone(s), 0 refused.');
      expect(first.code).toBe(0);

      const second = await cli(bad, '--operator', '1');
      expect(second.out).toContain('row 3 (zone 1): zone_number 1 already exists for this operator');
      expect(second.out).toContain('Nothing imported: 1 refused.');
      expect(second.code).toBe(1);

      const third = await cli(bad, '--skip-invalid');
      expect(third.out).toContain('Imported 1 zone(s), 1 refused.');
      expect(third.code).toBe(0);

      // These two stop before opening the database.
      const [missing, usage] = await Promise.all([cli(join(dir, 'missing.csv')), cli()]);
      expect(missing).toMatchObject({ code: 1, out: expect.stringContaining('Cannot read') });
      expect(usage).toMatchObject({ code: 1, out: expect.stringContaining('Usage:') });
    } finally {
      await drop();
    }
  });
});

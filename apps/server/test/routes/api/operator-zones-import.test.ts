import { describe, expect, it } from 'vitest';
import {
  OPERATOR_MESSAGES,
  ZONE_FILE_MAX_CHARS,
  ZONE_IMPORT_MESSAGES as M,
  type AuditPage,
  type OperatorZonePage,
  type Zone,
  type ZoneImportReport,
  type ZoneImportRequest,
} from '@parkit/contract';
import { as, expectRefused, registerAndSignIn } from '../../helpers.ts';
import { concurrently } from '../../concurrency.ts';
import { tableChecksums } from '../../guards/checksums.ts';
import { newOperator, signedInOwner, staffMember, twoOperators } from '../../operator-helpers.ts';
import { CENTRE } from '../../parking-helpers.ts';

// The console's zone import and export: the CLI's row-by-row checks, a dry run, all or
// the rows that pass, audited, scoped by operator; an export imports again as it is.
const {
  app,
  db,
  A,
  B,
  owner,
  ownerB,
  staff: { manager },
} = await twoOperators('Other Import Parking', ['manager']);
const driver = await registerAndSignIn(app);

type Who = Parameters<typeof as>[1];
const importAs = (who: Who, body: ZoneImportRequest | Record<string, unknown>, operatorId = A) =>
  as(app, who, { method: 'POST', url: `/api/Operator/${operatorId}/Zones/Import`, payload: body });
const exportAs = (who: Who, query: string, operatorId = A) =>
  as(app, who, { method: 'GET', url: `/api/Operator/${operatorId}/Zones/Export?${query}` });
const list = async (who: Who, q: string, operatorId = A) =>
  (
    await as(app, who, { method: 'GET', url: `/api/Operator/${operatorId}/Zones?q=${q}&limit=200` })
  ).json<OperatorZonePage>();
const lastAudit = async (who: Who = owner, operatorId = A) =>
  (await as(app, who, { method: 'GET', url: `/api/Operator/${operatorId}/Audit?limit=1` })).json<AuditPage>()
    .Entries[0];

const HEADER = 'zone_number,name,address,lat,lng,rate,max_stay_minutes,paid_days,capacity';
let n = 0;
/** A tag no other test's zone numbers have. */
const tag = () => `I${process.pid % 1000}${++n}X`;
const row = (number: string, extra = '') =>
  `${number},Import ${number},1 Import St,${CENTRE.lat + 0.002},${CENTRE.lng + 0.002},2.50,120,Mon-Fri,8${extra}`;
const csv = (...rows: string[]) => [HEADER, ...rows].join('\n');

describe('importing a zone file from the console', () => {
  it('a dry run lists the refused rows and writes nothing', async () => {
    const t = tag();
    const before = await tableChecksums(db);
    const res = await importAs(manager, {
      File: csv(row(`${t}1`), `${t}2,Bad,1 Bad St,95,-97.7,2.50,120,,`),
      FileName: 'zones.csv',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ZoneImportReport>()).toEqual({
      Format: 'csv',
      Rows: 2,
      Valid: 1,
      Imported: 0,
      Refused: [{ Row: 3, ZoneNumber: `${t}2`, Reason: 'lat must be between -90 and 90' }],
      IgnoredColumns: [],
      DryRun: true,
    });
    expect(await tableChecksums(db)).toEqual(before);
  });

  it('without SkipRefused a refused row keeps every row out; with it the others go in, audited, in Find Parking at once', async () => {
    const t = tag();
    const file = csv(row(`${t}1`), row(`${t}2`), `${t}3,,,30.2,-97.7,,120,,`);
    const before = await tableChecksums(db);
    const all = await importAs(manager, { File: file, DryRun: false });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json<ZoneImportReport>()).toMatchObject({ Valid: 2, Imported: 0, DryRun: false });
    expect(all.json<ZoneImportReport>().Refused.map((r) => r.Row)).toEqual([4]);
    expect(await tableChecksums(db)).toEqual(before);

    const skip = await importAs(manager, { File: file, DryRun: false, SkipRefused: true });
    expect(skip.statusCode, skip.body).toBe(200);
    expect(skip.json<ZoneImportReport>()).toMatchObject({ Valid: 2, Imported: 2 });
    const listed = await list(owner, t);
    expect(listed.Zones.map((z) => z.ZoneNumber)).toEqual([`${t}1`, `${t}2`]);
    expect(listed.Zones[0]).toMatchObject({
      RatePerHour: 2.5,
      Capacity: 8,
      PaidDays: [1, 2, 3, 4, 5],
      RetiredAt: null,
    });
    const entry = await lastAudit();
    expect(entry).toMatchObject({ Action: 'zone.import', ActorId: manager.memberId, Before: null });
    expect(entry!.After).toMatchObject({ Imported: 2, Refused: 1, ZoneNumbers: [`${t}1`, `${t}2`] });
    const nearby = (
      await as(app, driver, {
        method: 'GET',
        url: `/api/Parking/Zones/Nearby?lat=${CENTRE.lat + 0.002}&lng=${CENTRE.lng + 0.002}&radius=500&limit=50`,
      })
    ).json<Zone[]>();
    expect(nearby.map((z) => z.ZoneNumber)).toEqual(expect.arrayContaining([`${t}1`, `${t}2`]));

    // Again: the numbers exist now, every row is refused and nothing changes.
    const again = await importAs(manager, { File: file, DryRun: false, SkipRefused: true });
    expect(again.json<ZoneImportReport>()).toMatchObject({ Valid: 0, Imported: 0 });
    expect(again.json<ZoneImportReport>().Refused.map((r) => r.Reason)).toContain(
      `zone_number ${t}1 already exists for this operator`,
    );
  });

  it('reads GeoJSON, and names a feature that is not a Point', async () => {
    const t = tag();
    const file = JSON.stringify({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [CENTRE.lng, CENTRE.lat] },
          properties: { zone_number: `${t}1`, address: '2 Geo St', rate: 1, max_stay_minutes: 60, colour: 'red' },
        },
        { type: 'Feature', geometry: { type: 'LineString', coordinates: [] }, properties: { zone_number: `${t}2` } },
      ],
    });
    const res = await importAs(owner, { File: file, FileName: 'zones.geojson', DryRun: false, SkipRefused: true });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<ZoneImportReport>()).toMatchObject({
      Format: 'geojson',
      Imported: 1,
      IgnoredColumns: ['colour'],
      Refused: [{ Row: 2, ZoneNumber: `${t}2`, Reason: 'geometry must be a Point with [longitude, latitude]' }],
    });
  });

  it('bad and hostile input is a 400 naming the field and changes nothing', async () => {
    const before = await tableChecksums(db);
    expectRefused(await importAs(manager, { File: '' }), 400, 'File', M.fileRequired);
    expectRefused(await importAs(manager, {}), 400, 'File');
    expectRefused(
      await importAs(manager, { File: '{"type":"Feature"}', FileName: 'x.json' }),
      400,
      'File',
      M.fileUnreadable,
    );
    expectRefused(await importAs(manager, { File: '{not json', FileName: 'x.geojson' }), 400, 'File', M.fileUnreadable);
    expectRefused(await importAs(manager, { File: 'name,address\nx,y' }), 400, 'File', M.fileUnreadable);
    expectRefused(await importAs(manager, { File: 'x'.repeat(ZONE_FILE_MAX_CHARS + 1) }), 400, 'File', M.fileTooLarge);
    expectRefused(await importAs(manager, { File: csv(row('A')), DryRun: 'no' }), 400, 'DryRun');
    expectRefused(await importAs(manager, { File: csv(row('A')), FileName: 'x'.repeat(201) }), 400, 'FileName');
    // Rows that try SQL or a formula are refused by their checks or kept as text.
    const hostile = await importAs(manager, {
      File: csv(
        `1'; drop table zones;--,x,y,30,-97,1,60,,`,
        `${tag()},"=HYPERLINK(""http://x"")","a, ""b""",30.2672,-97.7431,1,60,,`,
      ),
      DryRun: true,
    });
    expect(hostile.statusCode, hostile.body).toBe(200);
    expect(hostile.json<ZoneImportReport>()).toMatchObject({ Valid: 1, Imported: 0 });
    expect(hostile.json<ZoneImportReport>().Refused[0]!.Reason).toMatch(/zone_number must be/);
    expect(await tableChecksums(db)).toEqual(before);
  });

  it('two imports of one file at once write each zone once', async () => {
    const t = tag();
    const file = csv(row(`${t}1`), row(`${t}2`), row(`${t}3`));
    const results = await concurrently(2, () => importAs(manager, { File: file, DryRun: false, SkipRefused: true }));
    for (const r of results) expect([200, 409], r.body).toContain(r.statusCode);
    const imported = results
      .filter((r) => r.statusCode === 200)
      .reduce((sum, r) => sum + r.json<ZoneImportReport>().Imported, 0);
    expect(imported).toBe(3);
    for (const r of results.filter((x) => x.statusCode === 409)) expect(r.json().message).toBe(M.numbersTaken);
    expect((await list(owner, t)).Total).toBe(3);
  });
});

describe('exporting', () => {
  it('CSV and GeoJSON hold the zones as the import reads them: an export imports again as it is', async () => {
    const C = await newOperator(db, 'Export Round Trip');
    const ownerC = await signedInOwner(app, db, C);
    const t = tag();
    const made = await importAs(
      ownerC,
      {
        File: csv(row(`${t}1`), `${t}2,=SUM(A1),"1 Quote ""St""",30.27,-97.74,0.00,30,none,0`),
        DryRun: false,
      },
      C,
    );
    expect(made.json<ZoneImportReport>().Imported, made.body).toBe(2);
    await as(app, ownerC, {
      method: 'POST',
      url: `/api/Operator/${C}/Zones/${(await list(ownerC, `${t}1`, C)).Zones[0]!.ZoneId}/Retire`,
    });

    const asCsv = await exportAs(ownerC, 'format=csv&retired=include', C);
    expect(asCsv.statusCode, asCsv.body).toBe(200);
    expect(asCsv.headers['content-type']).toMatch(/^text\/csv/);
    expect(asCsv.headers['content-disposition']).toBe('attachment; filename="zones.csv"');
    const lines = asCsv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'zone_number,name,address,city,state,zip,lat,lng,kind,rate,max_stay_minutes,paid_days,paid_from,paid_until,capacity',
    );
    expect(lines).toHaveLength(3);
    // A formula is defused; a quote is doubled.
    expect(lines[2]).toContain(`${t}2,'=SUM(A1),"1 Quote ""St"""`);
    expect(lines[1]).toContain(',2.50,120,"1,2,3,4,5",00:00,24:00,8');

    const asGeo = await exportAs(ownerC, 'retired=exclude', C);
    expect(asGeo.headers['content-type']).toMatch(/^application\/geo\+json/);
    const geo = asGeo.json<{
      features: { geometry: { coordinates: number[] }; properties: Record<string, unknown> }[];
    }>();
    expect(geo.features.map((f) => f.properties.zone_number)).toEqual([`${t}2`]);
    expect(geo.features[0]!.geometry.coordinates).toEqual([-97.74, 30.27]);

    // Into another operator, both files pass every check.
    const D = await newOperator(db, 'Export Target');
    const ownerD = await signedInOwner(app, db, D);
    for (const [File, FileName] of [
      [asCsv.body, 'zones.csv'],
      [asGeo.body, 'zones.geojson'],
    ] as const) {
      const dry = (await importAs(ownerD, { File, FileName }, D)).json<ZoneImportReport>();
      expect(dry.Refused, FileName).toEqual([]);
      expect(dry.IgnoredColumns).toEqual([]);
      expect(dry.Valid).toBe(dry.Rows);
    }
  });

  it('bad query values are a 400', async () => {
    expectRefused(await exportAs(owner, 'format=xml'), 400, 'format');
    expectRefused(await exportAs(owner, 'retired=all'), 400, 'retired');
  });
});

describe('who may import and export', () => {
  it('analysts and officers export but may not import; a driver neither', async () => {
    const before = await tableChecksums(db);
    for (const role of ['analyst', 'officer'] as const) {
      const who = await staffMember(app, db, A, role);
      expect((await exportAs(who, 'format=csv')).statusCode).toBe(200);
      expectRefused(
        await importAs(who, { File: csv(row(tag())), DryRun: false }),
        403,
        undefined,
        OPERATOR_MESSAGES.roleNotAllowed,
      );
    }
    expectRefused(await exportAs(driver, 'format=csv'), 403, undefined, OPERATOR_MESSAGES.staffOnly);
    expectRefused(await importAs(driver, { File: csv(row(tag())) }), 403);
    // Staff rows were added above; the zones are what matters here.
    const after = await tableChecksums(db);
    expect(after.zones).toEqual(before.zones);
    expect(after.audit_log).toEqual(before.audit_log);
  });

  it("another operator's id is a 404; an operator's export holds none of another's zones", async () => {
    const t = tag();
    expect(
      (await importAs(ownerB, { File: csv(row(`${t}1`)), DryRun: false }, B)).json<ZoneImportReport>().Imported,
    ).toBe(1);
    const before = await tableChecksums(db);
    expectRefused(await importAs(owner, { File: csv(row(`${t}9`)), DryRun: false }, B), 404);
    expectRefused(await exportAs(owner, 'format=csv', B), 404, undefined, OPERATOR_MESSAGES.operatorNotFound);
    expect(await tableChecksums(db)).toEqual(before);
    expect((await exportAs(owner, 'format=csv&retired=include')).body).not.toContain(`${t}1`);
    expect((await exportAs(ownerB, 'format=csv', B)).body).toContain(`${t}1`);
  });
});

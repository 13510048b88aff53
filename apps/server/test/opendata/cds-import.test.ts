import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { ZONE_IMPORT_MESSAGES as ZM, type PolicyBodyInput, type ZoneImportReport } from '@parkit/contract';
import { as, buildTestApp, expectRefused, MANY_REQUESTS, type SignedIn } from '../helpers.ts';
import { CENTRE, zoneAt } from '../parking-helpers.ts';
import { newOperator, signedInOwner, staffMember } from '../operator-helpers.ts';
import { tableChecksums } from '../guards/checksums.ts';
import { defaultOperatorId, insertZones, operatorById } from '../../src/zones/index.ts';
import { assignPolicy, savePolicyVersion } from '../../src/pricing/index.ts';
import { COMMAND_LINE } from '../../src/operators/index.ts';
import { auditLog, zones } from '../../src/db/schema/index.ts';
import { feedOf, importCdsFeed, type CdsCurbZone, type CdsPolicy } from '../../src/opendata/index.ts';
import { expectCds } from './cds-schema.ts';

// A CDS Curbs feed into an operator's zones and policies (docs/open-data.md#importing-a-curbs-feed):
// the round trip (export, import into a fresh operator on another server, export: the same
// document), and the zone import's row-by-row refusals (nothing written unless skipped).
const source = await buildTestApp(MANY_REQUESTS);
const A = await defaultOperatorId(source.database.db);
const east = { lat: CENTRE.lat, lng: CENTRE.lng + 0.01 };
await insertZones(source.database.db, A, [
  zoneAt('R1', '100 Congress Ave', CENTRE),
  {
    ...zoneAt('R2', '200 Lavaca St', { lat: CENTRE.lat + 0.001, lng: CENTRE.lng }),
    curb: {
      type: 'LineString',
      coordinates: [
        [CENTRE.lng, CENTRE.lat + 0.001],
        [CENTRE.lng + 0.0005, CENTRE.lat + 0.001],
      ],
    },
  },
  zoneAt('R3', '300 East 6th St', east, {
    capacity: 0,
    rateCents: 175,
    paidDays: [1, 2, 3, 4, 5, 6],
    paidFromMinute: 480,
    paidUntilMinute: 1320,
  }),
]);
const body: PolicyBodyInput = {
  Spans: [
    {
      Id: 'day',
      Name: 'Weekdays',
      Days: [1, 2, 3, 4, 5],
      From: '08:00',
      Until: '18:00',
      Rate: [
        { FromMinute: 0, CentsPerHour: 200 },
        { FromMinute: 60, CentsPerHour: 300 },
      ],
      FreeMinutes: 10,
      IncrementMinutes: 15,
      MaxSessionCents: 1500,
      MaxStayMinutes: 180,
      NoReturnMinutes: 60,
      UserClasses: [
        { UserClass: 'permit', Exempt: true },
        { UserClass: 'ev', Exempt: false, Rate: [{ FromMinute: 0, CentsPerHour: 120 }] },
      ],
    },
    {
      Id: 'night',
      Name: 'Weekend nights',
      Days: [5, 6],
      From: '22:00',
      Until: '02:00',
      StartDate: '2026-01-01',
      EndDate: '2027-12-31',
      Holidays: 'except',
      Rate: [{ FromMinute: 0, CentsPerHour: 100 }],
    },
  ],
  MaxStayMinutes: 240,
};
const saved = await savePolicyVersion(
  source.database.db,
  A,
  null,
  { Name: 'Downtown', Body: body },
  new Date(),
  COMMAND_LINE,
);
const idsOf = async (db: typeof source.database.db, ...numbers: string[]) =>
  Promise.all(
    numbers.map(async (n) => (await db.select({ id: zones.id }).from(zones).where(eq(zones.zoneNumber, n)))[0]!.id),
  );
await assignPolicy(source.database.db, A, await idsOf(source.database.db, 'R1', 'R2'), saved.PolicyId, COMMAND_LINE);

/** The operator's zones and policies answers, validated against the schema. */
async function exportFeed(app: FastifyInstance, operatorId: number) {
  const z = await app.inject({ method: 'GET', url: `/cds/curbs/zones?operator=${operatorId}` });
  const p = await app.inject({ method: 'GET', url: `/cds/curbs/policies?operator=${operatorId}` });
  expectCds('ZonesAnswer', z.json());
  expectCds('PoliciesAnswer', p.json());
  return [z.json(), p.json()] as [{ data: { zones: CdsCurbZone[] } }, { data: { policies: CdsPolicy[] } }];
}

/** The document without what a new server must set anew: when each zone and version was written, and the page links' host and operator. */
function comparable([z, p]: Awaited<ReturnType<typeof exportFeed>>) {
  const zonesOnly = z.data.zones.map(({ published_date: _p, last_updated_date: _l, start_date: _s, ...rest }) => rest);
  const policies = p.data.policies
    .map(({ published_date: _p, ...rest }) => rest)
    .sort((a, b) => a.curb_policy_id.localeCompare(b.curb_policy_id));
  return { zones: zonesOnly, policies };
}

describe('round trip', () => {
  it('export, import into a fresh operator on another server, export: the same document', async () => {
    const first = await exportFeed(source.app, A);
    expect(first[0].data.zones).toHaveLength(3);
    const target = await buildTestApp(MANY_REQUESTS);
    const fresh = await newOperator(target.database.db, 'Imported Curbs');
    const operator = (await operatorById(target.database.db, fresh))!;
    const report = await importCdsFeed(target.database.db, operator, feedOf(first), { actor: COMMAND_LINE });
    expect(report).toMatchObject({ rows: 3, imported: 3, refused: [], policies: 2 });
    const second = await exportFeed(target.app, fresh);
    expect(comparable(second)).toEqual(comparable(first));
    // The ids are kept, and the zones price stays as they did: R3's preset hours became its policy.
    const r3 = second[0].data.zones.find((x) => x.user_zone_id === 'R3')!;
    expect(r3.curb_zone_id).toBe(first[0].data.zones.find((x) => x.user_zone_id === 'R3')!.curb_zone_id);
    // Audited as a zone import.
    const [entry] = await target.database.db.select().from(auditLog).where(eq(auditLog.operatorId, fresh));
    expect(entry).toMatchObject({ action: 'zone.import', after: { Format: 'cds', Imported: 3, Policies: 2 } });
    // Importing it again: every zone number and curb_zone_id is taken; nothing written.
    const again = await importCdsFeed(target.database.db, operator, feedOf(first), { actor: COMMAND_LINE });
    expect(again.imported).toBe(0);
    expect(again.refused.map((r) => r.reason)).toEqual(Array(3).fill(expect.stringContaining('already exists')));
  });
});

describe('refusals', () => {
  it('refuses zones row by row; writes nothing unless the others are asked for', async () => {
    const [z, p] = await exportFeed(source.app, A);
    const good = z.data.zones;
    const policies = p.data.policies;
    const noStopping: CdsPolicy = {
      curb_policy_id: '8c0abb35-b8d2-469e-bdb1-b6de52c430ac',
      published_date: 1552678857362,
      priority: 3,
      rules: [{ activity: 'no stopping' }],
    };
    const feed = {
      zones: [
        { ...good[0]!, user_zone_id: 'N1', curb_zone_id: 'a1b2c3d4-0000-4000-8000-000000000001' },
        { ...good[1]!, user_zone_id: undefined, curb_zone_id: 'a1b2c3d4-0000-4000-8000-000000000002' },
        {
          ...good[0]!,
          user_zone_id: 'N3',
          curb_zone_id: 'a1b2c3d4-0000-4000-8000-000000000003',
          curb_policy_ids: ['98bd30e9-14cc-4e71-bee2-7bab0f28b2bd'],
        },
        {
          ...good[0]!,
          user_zone_id: 'N4',
          curb_zone_id: 'a1b2c3d4-0000-4000-8000-000000000004',
          curb_policy_ids: [noStopping.curb_policy_id],
        },
        { ...good[0]!, user_zone_id: 'N1', curb_zone_id: 'a1b2c3d4-0000-4000-8000-000000000005' },
        {
          ...good[0]!,
          user_zone_id: 'N6',
          curb_zone_id: 'a1b2c3d4-0000-4000-8000-000000000006',
          geometry: { type: 'Point', coordinates: [0, 0] },
        },
        { ...good[0]!, user_zone_id: 'N7', curb_zone_id: 'a1b2c3d4-0000-4000-8000-000000000007', end_date: 1000 },
        { ...good[0]!, user_zone_id: 'R1', curb_zone_id: 'a1b2c3d4-0000-4000-8000-000000000008' },
        { ...good[0]!, user_zone_id: 'N9' },
      ],
      policies: [...policies, noStopping],
    };
    const { db } = source.database;
    const operator = (await operatorById(db, A))!;
    const before = await tableChecksums(db);
    const report = await importCdsFeed(db, operator, feed, { actor: COMMAND_LINE });
    expect(report.imported).toBe(0);
    expect(await tableChecksums(db)).toEqual(before);
    expect(report.refused.map((r) => [r.row, r.reason])).toEqual([
      [2, expect.stringContaining('user_zone_id is required')],
      [3, expect.stringContaining('is not in the feed')],
      [4, expect.stringContaining('activity "no stopping" has no equal')],
      [5, 'user_zone_id N1 is already on row 1'],
      [6, expect.stringContaining('geometry')],
      [7, expect.stringContaining('end_date has passed')],
      [8, 'zone_number R1 already exists for this operator'],
      [9, expect.stringContaining('is already a zone on this server')],
    ]);
    const skipped = await importCdsFeed(db, operator, feed, { actor: COMMAND_LINE, skipInvalid: true });
    expect(skipped).toMatchObject({ imported: 1, policies: 1 });
  });

  it('is not a feed without zones or policies', () => {
    expect(() => feedOf([{ data: {} }])).toThrow('not a CDS Curbs feed');
  });
});

describe("the console's Import of a CDS feed", () => {
  it('checks the feed first, imports it whole with its policies, refuses what is not a feed, and two imports at once write it once', async () => {
    const exported = await exportFeed(source.app, A);
    const feed = JSON.stringify(exported);
    const n = exported[0].data.zones.length;
    // One price policy per distinct set of a zone's curb_policy_ids.
    const sets = new Set(exported[0].data.zones.map((z) => [...z.curb_policy_ids].sort().join(','))).size;
    expect(n).toBeGreaterThanOrEqual(3);
    const target = await buildTestApp(MANY_REQUESTS);
    const { db } = target.database;
    const fresh = await newOperator(db, 'Console Curbs');
    const owner = await signedInOwner(target.app, db, fresh);
    const analyst = await staffMember(target.app, db, fresh, 'analyst');
    const send = (who: SignedIn, payload: object) =>
      as(target.app, who, { method: 'POST', url: `/api/Operator/${fresh}/Zones/Import`, payload });
    const count = async () => (await db.select({ id: zones.id }).from(zones).where(eq(zones.operatorId, fresh))).length;

    // Refused, changing nothing: not JSON, JSON that is no feed, an unknown format, an analyst.
    const before = await tableChecksums(db);
    expectRefused(await send(owner, { Format: 'cds', File: 'zone_number,lat\n1,2' }), 400, 'File', ZM.cdsUnreadable);
    expectRefused(await send(owner, { Format: 'cds', File: '{"data":{}}' }), 400, 'File', ZM.cdsUnreadable);
    expectRefused(await send(owner, { Format: 'xml', File: feed }), 400, 'Format', ZM.formatInvalid);
    expectRefused(await send(analyst, { Format: 'cds', File: feed, DryRun: false }), 403);
    // The dry run (the default) reports and writes nothing.
    const checked = await send(owner, { Format: 'cds', File: feed, FileName: 'austin-curbs.json' });
    expect(checked.statusCode, checked.body).toBe(200);
    expect(checked.json<ZoneImportReport>()).toEqual({
      Format: 'cds',
      Rows: n,
      Valid: n,
      Imported: 0,
      Refused: [],
      IgnoredColumns: [],
      Policies: 0,
      DryRun: true,
    });
    expect(await tableChecksums(db)).toEqual(before);

    // Two imports at once: one writes the zones and their policies, the other writes nothing.
    const [a, b] = await Promise.all([0, 1].map(() => send(owner, { Format: 'cds', File: feed, DryRun: false })));
    const reports = [a!, b!].filter((r) => r.statusCode === 200).map((r) => r.json<ZoneImportReport>());
    expect(reports.filter((r) => r.Imported === n)).toHaveLength(1);
    expect(reports.find((r) => r.Imported === n)).toMatchObject({ Policies: sets, Refused: [] });
    for (const r of [a!, b!].filter((x) => x.statusCode !== 200)) expectRefused(r, 409, 'File', ZM.numbersTaken);
    expect(await count()).toBe(n);
    const entries = (await db.select().from(auditLog).where(eq(auditLog.operatorId, fresh))).filter(
      (e) => e.action === 'zone.import',
    );
    expect(entries.map((e) => e.actorId)).toEqual([owner.memberId]);
    expect(entries[0]!.after).toMatchObject({ FileName: '', Format: 'cds', Imported: n, Policies: sets });
    // Again: every zone is refused by its row, already there.
    const again = (await send(owner, { Format: 'cds', File: feed, DryRun: false })).json<ZoneImportReport>();
    expect(again).toMatchObject({ Imported: 0, Valid: 0 });
    expect(again.Refused.map((r) => r.Reason)).toEqual(Array(n).fill(expect.stringContaining('already exists')));
  });
});

// The operator's settings (docs/product.md#the-operators-console): every role reads them; the owner
// switches ShowPlates, audited with before and after; the console's sessions show plates in full
// only after the switch; bad input, other roles and another operator's id change nothing.
import { describe, expect, it } from 'vitest';
import {
  OPERATOR_MESSAGES as M,
  type AuditPage,
  type OperatorSessionPage,
  type OperatorSettings,
} from '@parkit/contract';
import { concurrently, statusCounts } from '../../concurrency.ts';
import { tableChecksums } from '../../guards/checksums.ts';
import { as, expectRefused, registerAndSignIn, type SignedIn } from '../../helpers.ts';
import { twoOperators } from '../../operator-helpers.ts';
import { addVehicle, addZone, credit, startSession } from '../../parking-helpers.ts';

const {
  app,
  db,
  A,
  B,
  owner,
  ownerB,
  staff: { manager, analyst, officer },
} = await twoOperators('Other Settings Parking', ['manager', 'analyst', 'officer']);

const read = (who: SignedIn, operatorId = A) =>
  as(app, who, { method: 'GET', url: `/api/Operator/${operatorId}/Settings` });
const change = (who: SignedIn, payload: unknown, operatorId = A) =>
  as(app, who, { method: 'PUT', url: `/api/Operator/${operatorId}/Settings`, payload: payload as object });
const settingsAudit = async (operatorId = A, who = owner) =>
  (await as(app, who, { method: 'GET', url: `/api/Operator/${operatorId}/Audit?limit=100` }))
    .json<AuditPage>()
    .Entries.filter((e) => e.Action === 'operator.update');

describe('operator settings', () => {
  it('every role reads them; plates are hidden until the owner opts in', async () => {
    for (const who of [owner, manager, analyst, officer]) {
      const res = await read(who);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<OperatorSettings>()).toEqual({ ShowPlates: false, RetentionWeeks: 13 });
    }
  });

  it('the owner switches ShowPlates: audited once per change, and the sessions show the plate in full', async () => {
    const zoneId = await addZone(db, 'ST1');
    const driver = await registerAndSignIn(app);
    await credit(db, driver.memberId, 5_000);
    const plate = 'SETPL8';
    const vehicleId = await addVehicle(app, driver, plate);
    await startSession(app, driver, { zoneId, vehicleId, minutes: 30 });
    const shown = async () =>
      (await as(app, analyst, { method: 'GET', url: `/api/Operator/${A}/Sessions?plate=${plate}` }))
        .json<OperatorSessionPage>()
        .Sessions.map((s) => s.PlateNumber);
    expect(await shown()).toEqual(['••••L8']);

    const on = await change(owner, { ShowPlates: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json<OperatorSettings>()).toEqual({ ShowPlates: true, RetentionWeeks: 13 });
    expect((await read(analyst)).json<OperatorSettings>()).toEqual({ ShowPlates: true, RetentionWeeks: 13 });
    expect(await shown()).toEqual([plate]);
    // The same again is no change: no second entry.
    expect((await change(owner, { ShowPlates: true })).statusCode).toBe(200);
    let entries = await settingsAudit();
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      ActorId: owner.memberId,
      Before: { ShowPlates: false, RetentionWeeks: 13 },
      After: { ShowPlates: true, RetentionWeeks: 13 },
    });

    expect((await change(owner, { ShowPlates: false })).json<OperatorSettings>()).toEqual({
      ShowPlates: false,
      RetentionWeeks: 13,
    });
    expect(await shown()).toEqual(['••••L8']);
    entries = await settingsAudit();
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ Before: { ShowPlates: true }, After: { ShowPlates: false } });
  });

  it('refuses other roles (403), bad input (400) and another operator (404), changing nothing', async () => {
    const driver = await registerAndSignIn(app);
    const before = await tableChecksums(db);
    for (const who of [manager, analyst, officer])
      expectRefused(await change(who, { ShowPlates: true }), 403, undefined, M.roleNotAllowed);
    for (const bad of [{}, { ShowPlates: 'yes' }, { ShowPlates: 1 }, { ShowPlates: null }])
      expectRefused(await change(owner, bad), 400, 'ShowPlates', undefined);
    for (const weeks of [0, 521, 1.5, '13', null])
      expectRefused(
        await change(owner, { ShowPlates: false, RetentionWeeks: weeks }),
        400,
        'RetentionWeeks',
        M.retentionWeeksRange,
      );
    expectRefused(await change(owner, [true]), 400);
    expectRefused(await change(owner, { ShowPlates: true }, B), 404, undefined, M.operatorNotFound);
    expectRefused(await read(owner, B), 404);
    expectRefused(await change(ownerB, { ShowPlates: true }, A), 404);
    expectRefused(await read(ownerB, A), 404);
    expectRefused(await change(driver, { ShowPlates: true }), 403, undefined, M.staffOnly);
    expect(await tableChecksums(db)).toEqual(before);
    expect((await read(ownerB, B)).json<OperatorSettings>()).toEqual({ ShowPlates: false, RetentionWeeks: 13 });
  });

  it('the owner sets the retention weeks (audited); left out, they are kept', async () => {
    const set = await change(owner, { ShowPlates: false, RetentionWeeks: 26 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json<OperatorSettings>()).toEqual({ ShowPlates: false, RetentionWeeks: 26 });
    expect((await change(owner, { ShowPlates: false })).json<OperatorSettings>().RetentionWeeks).toBe(26);
    expect((await settingsAudit())[0]).toMatchObject({ After: { RetentionWeeks: 26 } });
    expect((await read(ownerB, B)).json<OperatorSettings>().RetentionWeeks).toBe(13);
    expect((await change(owner, { ShowPlates: false, RetentionWeeks: 13 })).statusCode).toBe(200);
  });

  it('concurrent switches: the row is locked, so each change is audited with the before it really had', async () => {
    const results = await concurrently(8, (i) => change(owner, { ShowPlates: i % 2 === 0 }));
    expect(statusCounts(results)).toEqual({ 200: 8 });
    // Entries, oldest first, chain: each one's Before is the previous one's After.
    const entries = (await settingsAudit()).reverse();
    for (let i = 1; i < entries.length; i++) expect(entries[i]!.Before).toEqual(entries[i - 1]!.After);
    for (const e of entries) expect(e.Before).not.toEqual(e.After);
    const final = (await read(owner)).json<OperatorSettings>();
    expect(entries.at(-1)!.After).toEqual(final);
  });
});

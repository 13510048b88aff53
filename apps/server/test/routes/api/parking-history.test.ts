import { describe, expect, it } from 'vitest';
import type { PastSession, SessionsPage } from '@parkit/contract';
import { as, buildTestApp, registerAndSignIn } from '../../helpers.ts';
import { addSession, CENTRE, seedHistory, TIE } from '../../support/history-fixtures.ts';
import * as parking from '../../parking-helpers.ts';
import { pdfText } from '../../support/pdf-text.ts';

// Alice's walks (four sorts under concurrent inserts, every page size) and the bad-value tables are
// more requests in a minute than production's per-member limit (300); the limit has its own tests.
const { app, database } = await buildTestApp({ API_RATE_LIMIT: 2000 });
const db = database.db;
const { alice, bob, operatorId, zoneIds, car, van, alicesIds, bobsId } = await seedHistory(app, db);
const tie = TIE;

/** Bad values of the filters the list and the CSV share, and the field each 400 must name. */
const BAD_FILTERS: [string, string][] = [
  ['sort=sideways', 'sort'],
  ['sort=newest&sort=oldest', 'sort'],
  ['lat=abc&lng=1', 'lat'],
  ['lat=91&lng=1', 'lat'],
  ['lat=1&lng=-181', 'lng'],
  ['lat=30', 'lng'],
  ['lng=-97', 'lat'],
  ['lat=Infinity&lng=1', 'lat'],
  ['from=2026-13-01', 'from'],
  ['from=2026-02-30', 'from'],
  ['from=yesterday', 'from'],
  ['to=1999-12-31', 'to'],
  ['from=2026-03-05&to=2026-03-01', 'to'],
  ['vehicle=abc', 'vehicle'],
  ['vehicle=-3', 'vehicle'],
  ['vehicle=99999999999', 'vehicle'],
];

const list = async (who: typeof alice, qs: string) => {
  const res = await as(app, who, { method: 'GET', url: `/api/Parking/Sessions${qs ? `?${qs}` : ''}` });
  return res;
};
async function walk(who: typeof alice, qs: string, limit: number): Promise<PastSession[]> {
  const seen: PastSession[] = [];
  let cursor: string | null = null;
  do {
    const res = await list(who, `${qs}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
    expect(res.statusCode).toBe(200);
    const page = res.json<SessionsPage>();
    expect(page.Sessions.length).toBeLessThanOrEqual(limit);
    seen.push(...page.Sessions);
    cursor = page.NextCursor;
  } while (cursor);
  return seen;
}

describe('GET /api/Parking/Sessions', () => {
  it('lists only the member’s own sessions, newest first, by default', async () => {
    const res = await list(alice, '');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const page = res.json<SessionsPage>();
    expect(page.Sessions).toHaveLength(20);
    expect(page.NextCursor).toEqual(expect.any(String));
    expect(page.DistanceFrom).toBeNull();
    const times = page.Sessions.map((s) => Date.parse(s.StartedAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    expect(page.Sessions.map((s) => s.SessionId)).not.toContain(bobsId);
    const first = page.Sessions[0]!;
    expect(first).toMatchObject({
      ZoneNumber: '5002',
      Address: '200 Middle St',
      City: 'Austin',
      PlateState: 'TX',
      AmountPaid: 2.75,
      PaidVia: 'Wallet',
      Status: 'Ended',
    });
  });

  it('walks every page newest and oldest first without skipping or repeating (ties included)', async () => {
    for (const limit of [1, 4, 7, 50]) {
      const newest = await walk(alice, 'sort=newest', limit);
      expect(newest.map((s) => s.SessionId).sort((a, b) => a - b)).toEqual([...alicesIds].sort((a, b) => a - b));
      const oldest = await walk(alice, 'sort=oldest', limit);
      expect(oldest.map((s) => s.SessionId)).toEqual(newest.map((s) => s.SessionId).reverse());
    }
  });

  // The order each sort promises, as a comparator over the final rows (distance pages walk zones
  // by distance, each zone's sessions newest first).
  const newestFirst = (x: PastSession, y: PastSession) =>
    Date.parse(y.StartedAt) - Date.parse(x.StartedAt) || y.SessionId - x.SessionId;
  const orders = {
    newest: newestFirst,
    oldest: (x: PastSession, y: PastSession) => -newestFirst(x, y),
    near: (x: PastSession, y: PastSession) =>
      x.DistanceMeters! - y.DistanceMeters! || x.ZoneId - y.ZoneId || newestFirst(x, y),
    far: (x: PastSession, y: PastSession) =>
      y.DistanceMeters! - x.DistanceMeters! || y.ZoneId - x.ZoneId || newestFirst(x, y),
  };
  for (const sort of ['newest', 'oldest', 'near', 'far'] as const) {
    it(`never skips or repeats a row while sessions are being inserted between and during pages (${sort})`, async () => {
      const before = new Set(alicesIds);
      const seen: number[] = [];
      let cursor: string | null = null;
      const inserted: number[] = [];
      let round = 0;
      do {
        // New sessions at the tie instant, newer than all, and older than all, in each zone in turn, raced with the page.
        const zone = (k: number) => zoneIds[['5001', '5002', '5003'][(round + k) % 3]!]!;
        const inserts = [
          addSession(db, { memberId: alice.memberId, operatorId, zoneId: zone(0), startedAt: tie }),
          addSession(db, {
            memberId: alice.memberId,
            operatorId,
            zoneId: zone(1),
            startedAt: new Date(Date.UTC(2026, 5, 1) + round * 1000),
          }),
          addSession(db, {
            memberId: alice.memberId,
            operatorId,
            zoneId: zone(2),
            startedAt: new Date(Date.UTC(2025, 0, 1) - round * 1000),
          }),
        ];
        const [res]: [Awaited<ReturnType<typeof list>>, ...number[]] = await Promise.all([
          list(alice, `sort=${sort}&limit=5${cursor ? `&cursor=${cursor}` : ''}`),
          ...inserts,
        ]);
        inserted.push(...((await Promise.all(inserts)) as number[]));
        const page: SessionsPage = res.json<SessionsPage>();
        seen.push(...page.Sessions.map((s) => s.SessionId));
        cursor = page.NextCursor;
        round += 1;
      } while (cursor && round < 60);
      expect(cursor).toBeNull();
      expect(new Set(seen).size).toBe(seen.length); // nothing twice
      for (const id of before) expect(seen).toContain(id); // nothing that was there is skipped
      // Sessions inserted behind the cursor show up on later pages; none shows out of order.
      const all = new Map((await walk(alice, `sort=${sort}`, 50)).map((s) => [s.SessionId, s]));
      const seenRows = seen.map((id) => all.get(id)!);
      expect(seenRows.map((r) => r.SessionId)).toEqual([...seenRows].sort(orders[sort]).map((r) => r.SessionId));
      alicesIds.push(...inserted);
    });
  }

  it('sorts by distance from the driver’s position, or from the city centre, and says which', async () => {
    const far = { lat: CENTRE.lat + 0.2, lng: CENTRE.lng };
    const near = await walk(alice, `sort=near&lat=${CENTRE.lat}&lng=${CENTRE.lng}`, 6);
    expect(near).toHaveLength(alicesIds.length);
    const d = near.map((s) => s.DistanceMeters!);
    expect(d).toEqual([...d].sort((a, b) => a - b));
    expect(near.map((s) => s.SessionId)).toEqual([...near].sort(orders.near).map((s) => s.SessionId)); // each zone newest first
    expect(near[0]!.ZoneNumber).toBe('5001');
    expect(d[0]).toBeGreaterThan(100);
    expect(d[0]).toBeLessThan(125);
    const fromFar = await walk(alice, `sort=far&lat=${far.lat}&lng=${far.lng}`, 9);
    expect(fromFar[0]!.ZoneNumber).toBe('5001'); // 5001 is the farthest from a point 22 km north
    expect(new Set(fromFar.map((s) => s.SessionId)).size).toBe(alicesIds.length);

    const withPosition = (await list(alice, `sort=near&lat=${far.lat}&lng=${far.lng}`)).json<SessionsPage>();
    expect(withPosition.DistanceFrom).toBe('position');
    const fromCentre = (await list(alice, 'sort=near')).json<SessionsPage>();
    expect(fromCentre.DistanceFrom).toBe('cityCentre');
    expect(fromCentre.Sessions[0]!.ZoneNumber).toBe('5001');
  });

  it('filters by calendar days in the operator’s time zone, and by vehicle', async () => {
    // 2 Mar 2026 in Chicago: the 14:00 and 20:00 sessions of that day (20:00Z on 2 Mar, 02:00Z on 3 Mar).
    const day = (await walk(alice, 'from=2026-03-02&to=2026-03-02', 50)).map((s) => s.StartedAt);
    expect(day.sort()).toEqual(['2026-03-02T20:00:00.000Z', '2026-03-03T02:00:00.000Z']);
    const range = await walk(alice, 'from=2026-03-02&to=2026-03-04', 2);
    expect(range).toHaveLength(6);
    const vans = await walk(alice, `vehicle=${van.id}`, 50);
    expect(vans.map((s) => s.PlateNumber)).toEqual(['VAN 77']);
    expect((await list(alice, `vehicle=${van.id}&from=2026-03-21`)).json<SessionsPage>().Sessions).toEqual([]);
  });

  it('refuses every bad parameter with a 400 naming it, and changes nothing', async () => {
    const otherSortCursor = (await list(alice, 'sort=oldest&limit=1')).json<SessionsPage>().NextCursor!;
    const cases: [string, string][] = [
      ...BAD_FILTERS,
      ['limit=0', 'limit'],
      ['limit=51', 'limit'],
      ['limit=2.5', 'limit'],
      ['limit=ten', 'limit'],
      ['cursor=%27%3B%20DROP%20TABLE%20parking_sessions%3B--', 'cursor'],
      ['cursor=eyJzIjoibmV3ZXN0Iiwiay', 'cursor'],
      [`cursor=${Buffer.from(JSON.stringify({ s: 'newest', k: "2026'; --", i: 1 })).toString('base64url')}`, 'cursor'],
      [
        `cursor=${Buffer.from(JSON.stringify({ s: 'newest', k: '2026-03-01T00:00:00.000000Z', i: -1 })).toString('base64url')}`,
        'cursor',
      ],
      [`cursor=${'A'.repeat(201)}`, 'cursor'],
      [`sort=newest&cursor=${otherSortCursor}`, 'cursor'],
    ];
    for (const [qs, field] of cases) {
      const res = await list(alice, qs);
      expect(res.statusCode, qs).toBe(400);
      const body = res.json<{ message: string; errors: { field: string }[] }>();
      expect(body.errors?.[0]?.field, qs).toBe(field);
      expect(body.message).not.toMatch(/stack|at \w+ \(/);
    }
    expect((await walk(alice, 'sort=newest', 50)).length).toBe(alicesIds.length);
  });

  it('answers 401 without a token and 403 with another member’s xapikey', async () => {
    expect((await app.inject({ method: 'GET', url: '/api/Parking/Sessions' })).statusCode).toBe(401);
    const res = await as(app, alice, {
      method: 'GET',
      url: '/api/Parking/Sessions',
      headers: { xapikey: String(bob.memberId) },
    });
    expect(res.statusCode).toBe(403);
  });

  it('answers many requests at once with the same page', async () => {
    const pages = await Promise.all(Array.from({ length: 20 }, () => list(alice, 'sort=oldest&limit=5')));
    const bodies = new Set(pages.map((p) => p.body));
    expect(pages.every((p) => p.statusCode === 200)).toBe(true);
    expect(bodies.size).toBe(1);
  });
});

describe('a session made through the parking flow', () => {
  it('shows first, with what was paid after Stop’s refund, and prints on its receipt', async () => {
    const carol = await registerAndSignIn(app);
    await parking.credit(db, carol.memberId, 5000);
    const vehicleId = await parking.addVehicle(app, carol, 'FLOW 1');
    const started = await parking.startSession(app, carol, { zoneId: zoneIds['5001']!, vehicleId, minutes: 60 });
    const stop = await as(app, carol, {
      method: 'POST',
      url: '/api/Parking/Stop',
      payload: { SessionId: started.SessionId },
    });
    expect(stop.statusCode).toBe(200);
    const detail = (await as(app, carol, { method: 'GET', url: `/api/Parking/Session/${started.SessionId}` })).json<{
      AmountPaid: number;
    }>();
    const page = (await list(carol, '')).json<SessionsPage>();
    expect(page.Sessions).toHaveLength(1);
    expect(page.Sessions[0]).toMatchObject({
      SessionId: started.SessionId,
      PlateNumber: 'FLOW 1',
      ZoneNumber: '5001',
      Status: 'Ended',
      AmountPaid: detail.AmountPaid,
    });
    const pdf = await as(app, carol, { method: 'GET', url: `/api/Parking/Session/${started.SessionId}/Receipt.pdf` });
    expect((await pdfText(pdf.rawPayload)).text).toContain('FLOW 1');
  });
});

describe('GET /api/Parking/Sessions.csv', () => {
  it('writes its header in the app’s language (Accept-Language); English keeps the field names', async () => {
    const header = async (language?: string) => {
      const res = await as(app, alice, {
        method: 'GET',
        url: '/api/Parking/Sessions.csv',
        headers: language ? { 'accept-language': language } : {},
      });
      expect(res.statusCode).toBe(200);
      return res.body.split('\r\n')[0];
    };
    const english =
      'SessionId,StartedAt,EndedAt,DurationMinutes,ZoneNumber,Address,City,State,PlateNumber,PlateState,AmountPaid,FeeAmount,PaidVia,Status';
    expect(await header()).toBe(english);
    expect(await header('en-US')).toBe(english);
    expect(await header('es-US,es;q=0.9')).toBe(
      'Id. de sesión,Inicio,Fin,Duración (minutos),Zona,Dirección,Ciudad,Estado,Número de placa,Estado de la placa,Monto pagado,Cargo por servicio,Pagado con,Estado de la sesión',
    );
    expect(await header('hi')).toBe(
      'सत्र आईडी,शुरू,समाप्त,अवधि (मिनट),ज़ोन,पता,शहर,राज्य,वाहन प्लेट #,प्लेट का राज्य,भुगतान की गई राशि,सुविधा शुल्क,भुगतान माध्यम,स्थिति',
    );
  });

  it('has a header and one row per session of the filter, and nobody else’s', async () => {
    const res = await as(app, alice, { method: 'GET', url: '/api/Parking/Sessions.csv?sort=oldest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/csv/);
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="parkit-sessions.csv"/);
    const lines = res.body.trimEnd().split('\r\n');
    expect(lines[0]).toMatch(/^SessionId,StartedAt,EndedAt,DurationMinutes,ZoneNumber,Address/);
    expect(lines).toHaveLength(alicesIds.length + 1);
    expect(res.body).not.toContain('BOB1');
    const filtered = await as(app, alice, { method: 'GET', url: `/api/Parking/Sessions.csv?vehicle=${van.id}` });
    expect(filtered.body.trimEnd().split('\r\n')).toHaveLength(2);
    expect(filtered.body).toContain('VAN 77');
    // The same filters and sort as the list: the same sessions, in the same order, one row each.
    for (const qs of [
      'from=2026-03-02&to=2026-03-04',
      `sort=near&vehicle=${car.id}`,
      `sort=far&lat=${CENTRE.lat}&lng=${CENTRE.lng}&from=2026-03-05`,
      'sort=oldest&to=2026-03-03',
    ]) {
      const csv = await as(app, alice, { method: 'GET', url: `/api/Parking/Sessions.csv?${qs}` });
      expect(csv.statusCode, qs).toBe(200);
      const ids = csv.body
        .trimEnd()
        .split('\r\n')
        .slice(1)
        .map((l) => Number(l.split(',')[0]));
      const listed = (await walk(alice, qs, 7)).map((s) => s.SessionId);
      expect(listed.length, qs).toBeGreaterThan(1);
      expect(ids, qs).toEqual(listed);
    }
    for (const [qs, field] of [...BAD_FILTERS, ['from=2026-99-01', 'from']]) {
      const bad = await as(app, alice, { method: 'GET', url: `/api/Parking/Sessions.csv?${qs}` });
      expect(bad.statusCode, qs).toBe(400);
      expect(bad.json<{ errors: { field: string }[] }>().errors[0]!.field, qs).toBe(field);
    }
  });
});

describe('GET /api/Parking/Session/{id}/Receipt.pdf', () => {
  it('is a one-page PDF with the plate, in English, Hindi or Spanish', async () => {
    const id = alicesIds[0]!;
    const res = await as(app, alice, { method: 'GET', url: `/api/Parking/Session/${id}/Receipt.pdf` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const { pages, text } = await pdfText(res.rawPayload);
    expect(pages).toBe(1);
    expect(text).toContain('ABC1234');
    expect(text).toContain('Austin Parking (demo)');
    expect(text).toContain('01 Mar 2026, 02:00 PM');
    expect(text).toContain('$2.75');
    const hi = await as(app, alice, {
      method: 'GET',
      url: `/api/Parking/Session/${id}/Receipt.pdf`,
      headers: { 'accept-language': 'hi-IN,hi;q=0.9' },
    });
    const hiText = (await pdfText(hi.rawPayload)).text;
    expect(hiText).toContain('ABC1234');
    expect(hiText).toContain('भुगतान');
    // Spanish: by the browser's language (es-MX asks for Spanish too), or by ?lang=es over it.
    for (const request of [
      { url: `/api/Parking/Session/${id}/Receipt.pdf`, headers: { 'accept-language': 'es-MX,es;q=0.9,en;q=0.5' } },
      { url: `/api/Parking/Session/${id}/Receipt.pdf?lang=es`, headers: { 'accept-language': 'hi-IN' } },
    ]) {
      const es = await as(app, alice, { method: 'GET', ...request });
      expect(es.statusCode).toBe(200);
      const esText = (await pdfText(es.rawPayload)).text;
      expect(esText).toContain('Recibo de estacionamiento');
      expect(esText).toContain('Cargo por servicio');
      expect(esText).toContain('ABC1234');
      expect(esText).toContain('$2.75');
      expect(esText).not.toContain('Convenience Fee');
    }
  });

  it('writes its Started and Ended dates in the receipt’s language, in the zone’s time zone', async () => {
    const id = alicesIds[0]!;
    const pdf = async (lang: string) =>
      (
        await pdfText(
          (await as(app, alice, { method: 'GET', url: `/api/Parking/Session/${id}/Receipt.pdf?lang=${lang}` }))
            .rawPayload,
        )
      ).text;
    const en = await pdf('en');
    expect(en).toContain('01 Mar 2026, 02:00 PM');
    const es = await pdf('es');
    expect(es).toContain('01 mar 2026, 02:00 p.m.');
    expect(es).not.toContain('Mar 2026');
    const hi = await pdf('hi');
    // 01 मार्च 2026, 02:00 pm (the PDF's text layer keeps the shaped glyphs' order: 'माच').
    expect(hi).toMatch(/01\s+मा\S*\s+2026, 02:00 pm/);
    expect(hi).not.toContain('Mar 2026');
  });

  it('is 404 for another member’s session, a missing one, and 400 for a bad id', async () => {
    expect(
      (await as(app, alice, { method: 'GET', url: `/api/Parking/Session/${bobsId}/Receipt.pdf` })).statusCode,
    ).toBe(404);
    expect(
      (await as(app, alice, { method: 'GET', url: '/api/Parking/Session/2147483647/Receipt.pdf' })).statusCode,
    ).toBe(404);
    const field = (res: { json: <T>() => T }) => res.json<{ errors: { field: string }[] }>().errors[0]!.field;
    for (const id of ['abc', '-1', '0', '1.5', '99999999999']) {
      const res = await as(app, alice, { method: 'GET', url: `/api/Parking/Session/${id}/Receipt.pdf` });
      expect(res.statusCode, id).toBe(400);
      expect(field(res), id).toBe('id');
    }
    const lang = await as(app, alice, {
      method: 'GET',
      url: `/api/Parking/Session/${alicesIds[0]}/Receipt.pdf?lang=fr`,
    });
    expect(lang.statusCode).toBe(400);
    expect(field(lang)).toBe('lang');
    expect(
      (await app.inject({ method: 'GET', url: `/api/Parking/Session/${alicesIds[0]}/Receipt.pdf` })).statusCode,
    ).toBe(401);
  });
});

// The driver's proof pack (docs/citations.md#the-proof-pack): a PDF of the citation and
// of ParkIt's own records of its plate that day (the session with its quote and receipt, the
// officers' plate checks, what retention anonymised), in English, Hindi or Spanish; another
// member's citation and an unknown id are 404.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Citation, CitationFile, ParkingSession, Quote, Violation } from '@parkit/contract';
import { anonymiseChecksBefore, createKey } from '../../../src/enforcement/index.ts';
import { as, registerAndSignIn } from '../../helpers.ts';
import { twoOperators } from '../../operator-helpers.ts';
import { addVehicle, addZone, credit, pay, quote } from '../../parking-helpers.ts';
import { multipart, PNG } from '../../support-helpers.ts';
import { pdfText } from '../../support/pdf-text.ts';

const {
  app,
  db,
  A,
  staff: { manager, officer },
} = await twoOperators('Other Proof Parking', ['manager', 'officer']);
const zoneNumber = `PP${process.pid % 100}`;
const zoneId = await addZone(db, zoneNumber);
const key = await createKey(db, A, 'proof pack officer');

const plate = `PF${process.pid % 100}Z1`;
const driver = await registerAndSignIn(app);
await credit(db, driver.memberId, 10_000);
const vehicleId = await addVehicle(app, driver, plate);

const check = async () => {
  const res = await app.inject({
    method: 'GET',
    url: `/api/Enforcement/Check?zone=${zoneNumber}&plate=${plate}&state=TX`,
    headers: { 'x-operator-key': key.key },
  });
  expect(res.statusCode, res.body).toBe(200);
};

// A check that the operator's retention anonymises before the day's other records are made.
await check();
await anonymiseChecksBefore(db, A, new Date(Date.now() + 60_000));

// The session, the real way: its quote, Start, a check while it runs, Stop, a check after it.
const q = await quote(app, driver, { ZoneId: zoneId, VehicleId: vehicleId, DurationMinutes: 60 });
expect(q.statusCode, q.body).toBe(200);
const quoteId = q.json<Quote>().QuoteId;
const started = await pay(app, driver, 'Start', { QuoteId: quoteId });
expect(started.statusCode, started.body).toBe(201);
const session = started.json<ParkingSession>();
await check();
const stopped = await as(app, driver, {
  method: 'POST',
  url: '/api/Parking/Stop',
  payload: { SessionId: session.SessionId },
  headers: { 'idempotency-key': randomUUID() },
});
expect(stopped.statusCode, stopped.body).toBe(200);
await check();

// The officer cites the plate: no right covers it any more.
const violation = (
  await as(app, manager, {
    method: 'POST',
    url: `/api/Operator/${A}/Violations`,
    payload: {
      Code: `PP${randomUUID().slice(0, 5)}`,
      Description: 'Stayed after the session',
      Fine: '30.00',
      DueDays: 14,
      LateFee: '0',
    },
  })
).json<Violation>();
const upload = multipart(PNG, 'car.png', { type: 'image/png' });
const photo = (
  await as(app, officer, { method: 'POST', url: `/api/Operator/${A}/Citations/Photos`, ...upload })
).json<CitationFile>().FileId;
const cited = await as(app, officer, {
  method: 'POST',
  url: `/api/Operator/${A}/Citations`,
  payload: {
    ZoneId: zoneId,
    PlateNumber: plate,
    PlateState: 'TX',
    ViolationId: violation.ViolationId,
    PhotoIds: [photo],
  },
});
expect(cited.statusCode, cited.body).toBe(201);
const citation = cited.json<Citation>();
const url = `/api/Citations/${citation.CitationId}/ProofPack.pdf`;

describe('GET /api/Citations/{citationId}/ProofPack.pdf', () => {
  it('is a PDF of the citation, the session with its quote and receipt, and the plate checks of that day', async () => {
    const res = await as(app, driver, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="parkit-proof-pack-${citation.CitationId}.pdf"`,
    );
    const { text } = await pdfText(res.rawPayload);
    expect(text).toContain('Proof pack');
    expect(text).toContain(plate);
    expect(text).toContain(zoneNumber);
    expect(text).toContain('Stayed after the session');
    expect(text).toContain('$30.00');
    // The session, its quote and its receipt's number.
    expect(text).toMatch(new RegExp(`Session ID\\s+${session.SessionId}\\b`));
    expect(text).toContain(quoteId);
    expect(text).toMatch(new RegExp(`Receipt #\\s+${session.SessionId}\\b`));
    // The check while it ran names the session; the one after it did not find it paid.
    expect(text).toContain(`Paid (session ${session.SessionId})`);
    expect(text).toContain('Not paid');
    // The first check lost its plate to retention: the pack says so instead of listing it.
    expect(text).toContain('1 plate check in this zone that day no longer shows its plate');
    expect(text).toContain('Permits valid that day');
    expect(text).toContain('None found.');
  });

  it('is written in Spanish or Hindi (?lang=, else Accept-Language)', async () => {
    const es = await as(app, driver, { method: 'GET', url, headers: { 'accept-language': 'es-MX,es;q=0.9' } });
    expect(es.statusCode).toBe(200);
    const esText = (await pdfText(es.rawPayload)).text;
    expect(esText).toContain('Paquete de pruebas');
    expect(esText).toContain(`Pagado (sesión ${session.SessionId})`);
    expect(esText).toContain('1 verificación de placa en esta zona ese día ya no muestra la placa');
    expect(esText).not.toContain('Proof pack');

    const hi = await as(app, driver, { method: 'GET', url: `${url}?lang=hi`, headers: { 'accept-language': 'es' } });
    expect(hi.statusCode).toBe(200);
    const hiText = (await pdfText(hi.rawPayload)).text;
    expect(hiText).toContain(quoteId);
    expect(hiText).not.toContain('Paquete de pruebas');
    expect(hiText).not.toContain('Proof pack');
  });

  it('is 404 for another member’s citation and for an unknown one', async () => {
    const other = await registerAndSignIn(app);
    expect((await as(app, other, { method: 'GET', url })).statusCode).toBe(404);
    expect((await as(app, driver, { method: 'GET', url: '/api/Citations/2147483647/ProofPack.pdf' })).statusCode).toBe(
      404,
    );
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });
});

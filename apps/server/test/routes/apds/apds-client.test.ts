import createClient from 'openapi-fetch';
import { describe, expect, it } from 'vitest';
import { createKey } from '../../../src/enforcement/index.ts';
import { defaultOperatorId } from '../../../src/zones/index.ts';
import { buildTestApp, registerAndSignIn } from '../../helpers.ts';
import { addVehicle, addZone, credit, startSession } from '../../parking-helpers.ts';
import type { paths } from '../../support/apds-client/apds-schema.ts';

/**
 * A city's APDS client, generated from the APDS document alone (openapi-typescript's types,
 * openapi-fetch's client: docs/apds.md#the-generated-client), over HTTP against a running ParkIt
 * server: find a zone among the places, read its rate, get a quote, then see the session the
 * driver started there. The client knows nothing of ParkIt but the base URL and the key.
 */
const { app, database } = await buildTestApp({ ADDRESS_RATE_LIMIT_SCALE: 1000 });
const { db } = database;
const zoneId = await addZone(db, 'APDSC1');
const driver = await registerAndSignIn(app);
await credit(db, driver.memberId, 50_00);
const vehicleId = await addVehicle(app, driver, 'APDS 777');
const parked = await startSession(app, driver, { zoneId, vehicleId, minutes: 30 });
const { key } = await createKey(db, await defaultOperatorId(db), 'APDS client');
const baseUrl = `${await app.listen({ port: 0, host: '127.0.0.1' })}/apds`;
const apds = createClient<paths>({ baseUrl });

describe('a client generated from the APDS document', () => {
  it('places → rates → quote → sessions', async () => {
    const places = await apds.GET('/places', { params: { query: { type: ['parkingPlace'], name: 'APDSC1' } } });
    expect(places.response.status).toBe(200);
    const place = places.data!.data!.find((p: { id: string }) => p.id === `zone-${zoneId}`);
    expect(place).toBeDefined();
    const placeId = place!.id;
    expect(placeId).toBe(`zone-${zoneId}`);

    const spec = await apds.GET('/rights/specs/{id}', { params: { path: { id: placeId } } });
    expect(spec.response.status).toBe(200);
    const rateRef = spec.data!.rateEligibility![0]!.rateTable!;
    const rate = await apds.GET('/rates/{id}', { params: { path: { id: rateRef.id } } });
    expect(rate.response.status).toBe(200);
    expect(rate.data!.rateLineCollections[0]!.applicableCurrency).toBe('USD');

    const now = Date.now();
    const quote = await apds.POST('/quotes', {
      body: {
        id: 'city-quote-1',
        version: 1,
        requestTime: new Date(now).toISOString(),
        periodStart: new Date(now + 60_000).toISOString(),
        periodEnd: new Date(now + 2 * 3_600_000 + 60_000).toISOString(),
        referencedRightSpecifications: [{ rightSpecificationId: { id: placeId, version: spec.data!.version } }],
      },
    });
    expect(quote.response.status).toBe(200);
    const answer = quote.data!.data![0]!;
    expect('options' in answer && answer.options![0]!.financialQuote.value).toEqual({
      currencyType: 'USD',
      currencyValue: 5,
    });

    const anonymous = await apds.GET('/sessions');
    expect(anonymous.response.status).toBe(401);
    const sessions = await apds.GET('/sessions', {
      params: { query: { place: [placeId] } },
      headers: { 'x-operator-key': key },
    });
    expect(sessions.response.status).toBe(200);
    expect(sessions.data!.data!.map((s: { id: string }) => s.id)).toEqual([`session-${parked.SessionId}`]);
    const one = await apds.GET('/sessions/{id}', {
      params: { path: { id: `session-${parked.SessionId}` } },
      headers: { 'x-operator-key': key },
    });
    expect(one.data!.segments[0]!.actualStart).toBe(sessions.data!.data![0]!.actualStart);
  });
});

import { describe, expect, it } from 'vitest';
import type { ParkingOptions } from '@parkit/contract';
import { as, buildTestApp, expectRefused, registerAndSignIn, type SignedIn } from '../../helpers.ts';

const { app } = await buildTestApp();
const [alice, bob] = [await registerAndSignIn(app), await registerAndSignIn(app)];
const DEFAULTS: ParkingOptions = {
  AutoStartParking: false,
  AutoExtendParking: false,
  MaxPaymentEnabled: false,
  MaxPaymentAmount: 20,
};

const get = (who: SignedIn) => as(app, who, { method: 'GET', url: '/api/Account/ParkingOptions' });
const save = (who: SignedIn, payload: unknown) =>
  as(app, who, { method: 'POST', url: '/api/Account/ParkingOptions', payload: payload as Record<string, unknown> });

async function options(who: SignedIn): Promise<ParkingOptions> {
  const res = await get(who);
  expect(res.statusCode).toBe(200);
  return res.json<ParkingOptions>();
}

describe('GET and POST /api/Account/ParkingOptions', () => {
  it('starts from the defaults: all off, a $20.00 cap', async () => {
    expect(await options(alice)).toEqual(DEFAULTS);
  });

  it('saves each switch on its own, leaving the others as they were', async () => {
    const first = await save(alice, { AutoStartParking: true });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ ...DEFAULTS, AutoStartParking: true });
    await save(alice, { AutoExtendParking: true });
    await save(alice, { MaxPaymentEnabled: true, MaxPaymentAmount: 35.5 });
    await save(alice, { AutoStartParking: false });
    const expected = {
      AutoStartParking: false,
      AutoExtendParking: true,
      MaxPaymentEnabled: true,
      MaxPaymentAmount: 35.5,
    };
    expect(await options(alice)).toEqual(expected);
    // Turning the cap off keeps its amount for the next time it is turned on.
    const off = await save(alice, { MaxPaymentEnabled: false });
    expect(off.json()).toEqual({ ...expected, MaxPaymentEnabled: false });
    expect(await options(bob)).toEqual(DEFAULTS);
  });

  it('keeps concurrent toggles of different switches', async () => {
    const carol = await registerAndSignIn(app);
    await Promise.all([
      save(carol, { AutoStartParking: true }),
      save(carol, { AutoExtendParking: true }),
      save(carol, { MaxPaymentEnabled: true }),
    ]);
    expect(await options(carol)).toEqual({
      ...DEFAULTS,
      AutoStartParking: true,
      AutoExtendParking: true,
      MaxPaymentEnabled: true,
    });
  });

  it('refuses wrong types, bad amounts and empty bodies, saving nothing', async () => {
    const before = await options(alice);
    for (const field of ['AutoStartParking', 'AutoExtendParking', 'MaxPaymentEnabled']) {
      for (const value of ['true', 1, 0, null, [], {}, "' OR 1=1 --", 'x'.repeat(10_000)]) {
        expectRefused(await save(alice, { [field]: value }), 400, field);
      }
    }
    for (const value of [0, 0.99, 500.01, -5, 12.345, '20', null, [], {}, 'NaN', 'a\u0000b', '<script>']) {
      expectRefused(await save(alice, { MaxPaymentAmount: value }), 400, 'MaxPaymentAmount');
    }
    expectRefused(await save(alice, { AutoStartParking: true, MaxPaymentAmount: 9999 }), 400, 'MaxPaymentAmount');
    expectRefused(await save(alice, {}), 400);
    const json = { 'content-type': 'application/json' };
    for (const body of ['null', '[]', '"on"', '{"AutoStartParking":']) {
      expectRefused(
        await as(app, alice, { method: 'POST', url: '/api/Account/ParkingOptions', payload: body, headers: json }),
        400,
      );
    }
    expect(await options(alice)).toEqual(before);
  });

  it('takes amounts with two decimals at the bounds', async () => {
    expect((await save(alice, { MaxPaymentAmount: 1 })).json<ParkingOptions>().MaxPaymentAmount).toBe(1);
    expect((await save(alice, { MaxPaymentAmount: 500 })).json<ParkingOptions>().MaxPaymentAmount).toBe(500);
    expect((await save(alice, { MaxPaymentAmount: 19.99 })).json<ParkingOptions>().MaxPaymentAmount).toBe(19.99);
  });

  it('needs a signed-in member', async () => {
    expectRefused(await app.inject({ method: 'GET', url: '/api/Account/ParkingOptions' }), 401);
    expectRefused(
      await app.inject({ method: 'POST', url: '/api/Account/ParkingOptions', payload: { AutoStartParking: true } }),
      401,
    );
    const otherKey = { ...alice, headers: { ...alice.headers, xapikey: String(bob.memberId) } };
    expectRefused(await save(otherKey, { AutoStartParking: true }), 403);
    expect((await options(bob)).AutoStartParking).toBe(false);
  });
});

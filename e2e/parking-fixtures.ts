import { expect, type APIRequestContext, type Locator, type Page } from '@playwright/test';
import { apiSignIn, authHeaders, registerNewMember, type NewMember } from './fixtures.ts';

/**
 * Park and pay's e2e helpers: a driver with vehicles and money, made through the
 * app's own API (sandbox card, AddMoney, Quote, Start, Stop), a payable zone, and the page clock.
 */

export type Headers = Record<string, string>;
export interface Zone {
  ZoneId: number;
  ZoneNumber: string;
  Address: string;
  Latitude: number;
  Longitude: number;
  DistanceMeters: number;
  PaymentRequiredNow: boolean;
  MaxStayMinutes: number;
}

/** Adds the sandbox's test Visa and tops the wallet up through the wallet's own API. */
export async function fund(request: APIRequestContext, headers: Headers, amount: number) {
  const tok = await request.post('/api/Sandbox/Tokens', {
    data: { Number: '4242 4242 4242 4242', ExpMonth: 12, ExpYear: 2099, Cvc: '123' },
  });
  expect(tok.ok(), await tok.text()).toBeTruthy();
  const card = await request.post('/api/PaymentMethods/Add', {
    headers,
    data: { Token: ((await tok.json()) as { Token: string }).Token },
  });
  expect(card.ok(), await card.text()).toBeTruthy();
  const add = await request.post('/api/Wallet/AddMoney', {
    headers: { ...headers, 'idempotency-key': `e2e-h-${Date.now()}-${Math.random()}` },
    data: { Amount: amount },
  });
  expect(add.ok(), await add.text()).toBeTruthy();
}

export async function addVehicle(request: APIRequestContext, headers: Headers, plate: string): Promise<number> {
  const res = await request.post('/api/Vehicle/Add', {
    headers,
    data: {
      VehicleMake: 'TOYOTA',
      VehicleModel: 'CAMRY',
      PlateNumber: plate,
      PlateState: 'TX',
      VehicleColor: 'SILVER',
      VehicleYear: '2021',
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { VehicleID: number }).VehicleID;
}

/** Quote and Start, the app's own way; returns the session id. */
export async function start(
  request: APIRequestContext,
  headers: Headers,
  zoneId: number,
  vehicleId: number,
  minutes = 30,
): Promise<{ SessionId: number; EndsAt: string }> {
  const q = await request.post('/api/Parking/Quote', {
    headers,
    data: { ZoneId: zoneId, VehicleId: vehicleId, DurationMinutes: minutes },
  });
  expect(q.ok(), await q.text()).toBeTruthy();
  const s = await request.post('/api/Parking/Start', {
    headers: { ...headers, 'idempotency-key': `e2e-s-${Date.now()}-${Math.random()}` },
    data: { QuoteId: ((await q.json()) as { QuoteId: string }).QuoteId },
  });
  expect(s.status(), await s.text()).toBe(201);
  return (await s.json()) as { SessionId: number; EndsAt: string };
}

export async function stop(request: APIRequestContext, headers: Headers, sessionId: number) {
  const res = await request.post('/api/Parking/Stop', { headers, data: { SessionId: sessionId } });
  expect(res.ok(), await res.text()).toBeTruthy();
}

export const money = (n: number) => `$${n.toFixed(2)}`;

/** A new member, signed in in the page, with a vehicle and (optionally) money from a sandbox card. */
export async function driver(page: Page, request: APIRequestContext, opts: { fund?: number; plates?: string[] } = {}) {
  const member: NewMember = await registerNewMember(page, request);
  const headers = authHeaders(await apiSignIn(request, member.UserName, member.Password));
  const vehicles: number[] = [];
  for (const plate of opts.plates ?? [`E2E${member.PhoneNumber.slice(-5)}`])
    vehicles.push(await addVehicle(request, headers, plate));
  if (opts.fund) await fund(request, headers, opts.fund);
  return { member, headers, vehicles };
}

/** A demo zone that charges during the next hour (demo zones keep real paid hours; some are free now). */
export async function payableZone(request: APIRequestContext, headers: Headers, vehicleId: number): Promise<Zone> {
  const op = (await (await request.get('/api/Parking/Operator', { headers })).json()) as {
    Latitude: number;
    Longitude: number;
  };
  const res = await request.get(
    `/api/Parking/Zones/Nearby?lat=${op.Latitude}&lng=${op.Longitude}&radius=5000&limit=100`,
    { headers },
  );
  const zones = (await res.json()) as Zone[];
  for (const z of zones.filter((x) => x.PaymentRequiredNow && x.MaxStayMinutes >= 120)) {
    const q = await request.post('/api/Parking/Quote', {
      headers,
      data: { ZoneId: z.ZoneId, VehicleId: vehicleId, DurationMinutes: 60 },
    });
    if (q.ok()) return z;
  }
  throw new Error('no demo zone charges in the next hour');
}

export async function balance(request: APIRequestContext, headers: Headers): Promise<number> {
  return ((await (await request.get('/api/Account/Details', { headers })).json()) as { Balance: number }).Balance;
}

/** The countdown's text in seconds ('1:00:00' → 3600, '59:58' → 3598), and back. */
export const seconds = (text: string | null) => (text ?? '').split(':').reduce((a, p) => a * 60 + Number(p), 0);
export const countdownText = (s: number) => {
  const [h, m, sec] = [Math.floor(s / 3600), Math.floor((s % 3600) / 60), s % 60];
  return h > 0
    ? `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}`
    : `${m}:${String(sec).padStart(2, '0')}`;
};

/**
 * Stops the page's clock a moment from now: from here only the test moves it (timers fire as they
 * fall due). The page's clock runs in real time until then, and on a loaded machine the moment
 * can pass before pauseAt arrives ("Cannot fast-forward to the past"): then a later moment.
 */
export async function pauseClock(page: Page) {
  for (let margin = 200; ; margin *= 4) {
    try {
      await page.clock.pauseAt((await page.evaluate(() => Date.now())) + margin);
      return;
    } catch (err) {
      if (margin >= 51_200 || !String(err).includes('to the past')) throw err;
    }
  }
}

/** The countdown in seconds once two reads 250 ms of real time apart agree (the page's clock is paused). */
export async function settled(page: Page, countdown: Locator): Promise<number> {
  let last = -1;
  for (;;) {
    const now = seconds(await countdown.textContent());
    if (now === last) return now;
    last = now;
    await new Promise((r) => setTimeout(r, 250));
  }
}

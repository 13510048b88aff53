import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { apiSignIn, authHeaders, registerNewMember } from './fixtures.ts';
import { addVehicle, fund, start, stop, type Headers, type Zone } from './parking-fixtures.ts';

/** Past parking's e2e helpers: a member's sessions made through the real flow (wallet, Quote, Start, Stop). */

/** Payable demo zones at clearly different distances from the city centre (nearest first). */
export async function spreadZones(request: APIRequestContext, headers: Headers, vehicleId: number, count: number) {
  const centre = (await (await request.get('/api/Parking/Operator', { headers })).json()) as {
    Latitude: number;
    Longitude: number;
  };
  const res = await request.get(
    `/api/Parking/Zones/Nearby?lat=${centre.Latitude}&lng=${centre.Longitude}&radius=10000&limit=100`,
    { headers },
  );
  const zones = ((await res.json()) as Zone[]).filter((z) => z.PaymentRequiredNow && z.MaxStayMinutes >= 60);
  const picked: Zone[] = [];
  for (const z of zones) {
    if (picked.length === count) break;
    if (picked.some((p) => Math.abs(p.DistanceMeters - z.DistanceMeters) < 80)) continue;
    const q = await request.post('/api/Parking/Quote', {
      headers,
      data: { ZoneId: z.ZoneId, VehicleId: vehicleId, DurationMinutes: 30 },
    });
    if (q.ok()) picked.push(z);
  }
  expect(picked.length, 'enough payable demo zones').toBe(count);
  return { centre: { latitude: centre.Latitude, longitude: centre.Longitude }, zones: picked };
}

/**
 * A new member, signed in in the page, with a plate starting `prefix`, `amount` in the wallet and
 * one ended session at each of `order.length` spread zones, made in that order of the zones.
 */
async function memberWithSessions(
  page: Page,
  request: APIRequestContext,
  prefix: string,
  order: number[],
  amount: number,
) {
  const member = await registerNewMember(page, request);
  const headers = authHeaders(await apiSignIn(request, member.UserName, member.Password));
  const plate = `${prefix}${member.PhoneNumber.slice(-5)}`;
  const vehicleId = await addVehicle(request, headers, plate);
  await fund(request, headers, amount);
  const { centre, zones } = await spreadZones(request, headers, vehicleId, order.length);
  const sessions: number[] = [];
  for (const z of order.map((k) => zones[k]!)) {
    const s = await start(request, headers, z.ZoneId, vehicleId);
    await stop(request, headers, s.SessionId);
    sessions.push(s.SessionId);
  }
  return { headers, plate, vehicleId, centre, zones, sessions };
}

/** A new member with four ended sessions at four zones (made out of the zones' order). */
export function memberWithHistory(page: Page, request: APIRequestContext) {
  return memberWithSessions(page, request, 'HX', [2, 0, 3, 1], 50);
}

/** A new member with one ended session (the real flow). */
export async function memberWithOneSession(page: Page, request: APIRequestContext) {
  const { plate, zones, sessions } = await memberWithSessions(page, request, 'HI', [0], 20);
  return { plate, zone: zones[0]!, sessionId: sessions[0]! };
}

/** A colour as the screen paints it, in sRGB (Tailwind's colours are oklch in CSS). */
export const painted = (page: Page, selector: string) =>
  page
    .locator(selector)
    .first()
    .evaluate((el) => {
      const ctx = document.createElement('canvas').getContext('2d')!;
      ctx.fillStyle = getComputedStyle(el).backgroundColor;
      ctx.fillRect(0, 0, 1, 1);
      const [r, g, b] = ctx.getImageData(0, 0, 1, 1).data;
      return { r: r!, g: g!, b: b! };
    });

import { createPublicKey, verify } from 'node:crypto';
import { chromium, type BrowserContext, type Page } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../fixtures.ts';
import { driver, payableZone, seconds, start } from '../parking-fixtures.ts';

/**
 * At the kerb with no signal (docs/architecture.md#offline): the app installs, its service worker
 * keeps every screen's code, the driver's session, countdown and proof of payment open after a
 * reload with no connection, and the worker shows a pushed reminder.
 */

interface Jwk {
  kty: string;
  crv: string;
  x: string;
  kid: string;
}

/** The app's worker is installed and controls the page (it registers after the first screen). */
async function controlled(page: Page) {
  await page.waitForFunction(() => navigator.serviceWorker?.controller !== null, null, { timeout: 40_000 });
}

/** Checks a proof token as an officer's device does, with the published key alone (docs/proof-of-payment.md). */
function verifyProof(token: string, keys: Jwk[]): Record<string, unknown> {
  const [h, p, s] = token.split('.') as [string, string, string];
  const header = JSON.parse(Buffer.from(h, 'base64url').toString()) as { alg: string; kid: string; typ: string };
  expect(header).toMatchObject({ alg: 'EdDSA', typ: 'parkit-proof+jwt' });
  const jwk = keys.find((k) => k.kid === header.kid);
  expect(jwk, 'the signing key is published').toBeDefined();
  const key = createPublicKey({ key: { kty: jwk!.kty, crv: jwk!.crv, x: jwk!.x }, format: 'jwk' });
  expect(verify(null, Buffer.from(`${h}.${p}`), key, Buffer.from(s, 'base64url'))).toBe(true);
  return JSON.parse(Buffer.from(p, 'base64url').toString()) as Record<string, unknown>;
}

test.describe('with the service worker', () => {
  test.use({ serviceWorkers: 'allow' });

  test('offline after a start, a reload still shows the countdown and the proof of payment', async ({
    page,
    request,
  }) => {
    const { headers, vehicles } = await driver(page, request, { fund: 20 });
    const zone = await payableZone(request, headers, vehicles[0]!);
    const session = await start(request, headers, zone.ZoneId, vehicles[0]!, 60);
    const { keys } = (await (await request.get('/api/Parking/ProofKeys')).json()) as { keys: Jwk[] };

    await page.goto(`/parkdetails?id=${session.SessionId}`);
    const countdown = page.getByTestId('countdown');
    await expect(countdown).toHaveText(/^(1:00:00|59:\d\d)$/);
    const proof = page.getByRole('img', { name: /^Proof of payment for / });
    await expect(proof).toBeVisible();
    await controlled(page);

    await page.context().setOffline(true);
    await page.reload();
    await expect(page.getByText("You're offline")).toBeVisible();
    await expect(countdown).toHaveText(/^(59|58):\d\d$/);
    const left = seconds(await countdown.textContent());
    const due = Math.round((Date.parse(session.EndsAt) - Date.now()) / 1000);
    expect(Math.abs(left - due)).toBeLessThanOrEqual(5);
    await expect(proof).toBeVisible();
    const claims = verifyProof((await proof.getAttribute('data-token'))!, keys);
    const s = (await (await request.get(`/api/Parking/Session/${session.SessionId}`, { headers })).json()) as {
      PlateNumber: string;
      ZoneNumber: string;
    };
    expect(claims).toMatchObject({
      plate: s.PlateNumber.toUpperCase(),
      zone: s.ZoneNumber,
      exp: Math.floor(Date.parse(session.EndsAt) / 1000),
    });
    // Another screen's code comes from the worker too.
    await page.getByRole('link', { name: 'Back' }).click();
    await expect(page).toHaveURL(/\/homepage$/);
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  });
});

/**
 * Installability and notifications need a profile that is not off the record (Playwright's
 * contexts are): a persistent context in a folder of its own.
 */
test.describe('as an installed app', () => {
  let context: BrowserContext;
  let dir: string;
  test.beforeEach(async ({ baseURL }) => {
    dir = mkdtempSync(join(tmpdir(), 'parkit-pwa-'));
    const config = test.info().project.use;
    context = await chromium.launchPersistentContext(dir, {
      ...config.launchOptions,
      baseURL,
      viewport: { width: 390, height: 844 },
      serviceWorkers: 'allow',
      permissions: ['notifications'],
    });
  });
  test.afterEach(async () => {
    await context.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('Chromium reports the app installable', async () => {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/parkit');
    await controlled(page);
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as {
      installabilityErrors: { errorId: string }[];
    };
    expect(installabilityErrors).toEqual([]);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
    expect(manifest.url).toMatch(/\/manifest\.webmanifest$/);
    expect(manifest.errors).toEqual([]);
  });

  test('a pushed reminder is shown as a notification by the service worker', async () => {
    const page = context.pages()[0] ?? (await context.newPage());
    await page.goto('/parkit');
    await controlled(page);
    const cdp = await context.newCDPSession(page);
    const registrations: { registrationId: string; scopeURL: string }[] = [];
    cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: typeof registrations }) =>
      registrations.push(...e.registrations),
    );
    await cdp.send('ServiceWorker.enable');
    await expect.poll(() => registrations.length).toBeGreaterThan(0);
    const origin = new URL(page.url()).origin;
    const reminder = {
      title: 'ParkIt',
      body: 'Your parking in zone 1001 ends at 5:30 PM.',
      url: '/parkdetails?id=1',
      tag: 'parking-1',
    };
    const push = () =>
      cdp.send('ServiceWorker.deliverPushMessage', {
        origin,
        registrationId: registrations.at(-1)!.registrationId,
        data: JSON.stringify(reminder),
      });
    const shown = () =>
      page.evaluate(async () =>
        (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => ({
          title: n.title,
          body: n.body,
          tag: n.tag,
        })),
      );
    await push();
    // A push that reaches the worker before its handler runs is lost (a loaded machine, the full
    // run): push again until one is shown. The tag makes a second one replace the first.
    await expect
      .poll(
        async () => {
          const now = await shown();
          if (now.length === 0) await push();
          return now;
        },
        { timeout: 30_000 },
      )
      .toEqual([{ title: reminder.title, body: reminder.body, tag: reminder.tag }]);
  });
});

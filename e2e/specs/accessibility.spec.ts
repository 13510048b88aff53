import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { continueAsGuest, expect, signInAsDemo, test } from '../fixtures.ts';

/**
 * Every built screen passes an axe scan with no serious or critical finding, for a
 * visitor, a guest and a member (the whole page: header, content and the bottom navigation).
 */

// A toast fading in or out (sonner animates opacity over 0.4 s) is half transparent for that
// moment, and axe measures its contrast mid-fade. Scan the settled page, as a driver who asked
// for less motion sees it; a toast that stays is still scanned, at full opacity.
test.use({ reducedMotion: 'reduce' });

async function seriousFindings(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Opens each path and scans it once the screen has drawn (its main landmark is there). */
async function scan(page: Page, paths: string[]) {
  const findings: Record<string, string[]> = {};
  for (const path of paths) {
    await page.goto(path);
    // One main landmark, with the screen's heading in it (a guest's sign-in prompt too).
    await expect(page.locator('main')).toHaveCount(1);
    await expect(page.locator('main').first()).toBeVisible();
    await expect(page.locator('main h1')).toHaveCount(1);
    // Let loading skeletons turn into content before scanning. A screen with a live event stream
    // (/supportpage, /chatsupport) never goes network-idle: wait a little, then for the skeletons.
    await page.waitForLoadState('networkidle', { timeout: 3_000 }).catch(() => undefined);
    await expect(page.locator('.animate-pulse')).toHaveCount(0);
    const found = await seriousFindings(page);
    if (found.length > 0) findings[path] = found;
  }
  expect(findings).toEqual({});
}

const MEMBER_SCREENS = [
  '/homepage',
  '/dashboard',
  '/profile',
  '/editprofile',
  '/myvehicles',
  '/addvehicles',
  '/findparking',
  '/findParkingMap',
  '/account',
  '/addmoney',
  '/pastpark',
  '/mappage',
  '/supportpage',
  '/requestcall',
  '/chatsupport',
  '/support-console',
  '/forgot',
  '/resetpassword',
  '/subscription',
  '/stripepage',
  '/SelectVehicle',
  '/parkdetails',
  '/ClosingReceipt',
  '/ParkingSessionDetail',
  '/QuickParkRegister',
];

test('public screens', async ({ page }) => {
  // Seven screens, each axe run taking seconds on a busy machine: the groups' budget below.
  test.setTimeout(150_000);
  await scan(page, [
    '/parkit',
    '/login',
    '/login?mode=otp',
    '/login?mode=forgot',
    '/register',
    '/otp?phone=5125550100&purpose=login',
    '/homepage',
  ]);
});

// A guest on every screen a member has: the member-only ones (MemberOnly, MemberScreen) show the
// sign-in prompt inside the screen's main landmark.
const GUEST_SCREENS = [...MEMBER_SCREENS.filter((p) => p !== '/support-console'), '/subscription/payment'];

for (let i = 0; i < GUEST_SCREENS.length; i += 9) {
  const group = GUEST_SCREENS.slice(i, i + 9);
  test(`a guest's screens, sign-in prompts included: ${group[0]} to ${group.at(-1)}`, async ({ page }) => {
    test.setTimeout(150_000);
    await continueAsGuest(page);
    await scan(page, group);
  });
}

// In groups of eight: each axe run takes seconds on a busy machine.
for (let i = 0; i < MEMBER_SCREENS.length; i += 8) {
  const group = MEMBER_SCREENS.slice(i, i + 8);
  test(`a member's screens: ${group[0]} to ${group.at(-1)}`, async ({ page }) => {
    test.setTimeout(150_000);
    await signInAsDemo(page);
    await scan(page, group);
  });
}

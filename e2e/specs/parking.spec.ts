import {
  apiSignIn,
  authHeaders,
  continueAsGuest,
  expect,
  newMemberData,
  readCode,
  registerNewMember,
  test,
} from '../fixtures.ts';
import {
  balance,
  countdownText,
  driver,
  money,
  pauseClock,
  payableZone,
  seconds,
  settled,
  start,
} from '../parking-fixtures.ts';

/**
 * Park and pay: find a zone, confirm, pick a vehicle and 1 hour, pay from the wallet,
 * watch the countdown, extend, stop, read the receipt; Auto Start, a short balance, a plate
 * correction, a reminder, Hindi. Real server, real wallet (sandbox card), real Chromium.
 */

test('find a zone, pay for an hour, extend 30 minutes, stop and read the receipt', async ({ page, request }) => {
  // The page's clock is Playwright's: real time until paused, then moved by the test.
  await page.clock.install();
  const { headers, vehicles } = await driver(page, request, { fund: 20 });
  const zone = await payableZone(request, headers, vehicles[0]!);

  // Find the zone by the number on the sign, confirm it.
  await page.goto('/findparking');
  await page.getByRole('searchbox', { name: 'Search by zone number or address' }).fill(zone.ZoneNumber);
  await page
    .getByRole('list', { name: 'Zones' })
    .getByRole('listitem')
    .filter({ hasText: zone.ZoneNumber })
    .first()
    .getByRole('button')
    .click();
  await page.getByRole('dialog').getByRole('link', { name: 'Park here' }).click();
  await expect(page).toHaveURL(new RegExp(`/confirmlocation\\?zone=${zone.ZoneId}$`));
  await page.getByRole('link', { name: 'Continue' }).click();

  // Select Vehicle: the plate, 1 h, the all-in price on the button.
  await expect(page).toHaveURL(new RegExp(`/SelectVehicle\\?zone=${zone.ZoneId}$`));
  await expect(page.getByRole('radio')).toBeChecked();
  await expect(page.getByTestId('duration')).toHaveText('1 h');
  const total = page.getByTestId('quote-total');
  await expect(total).toHaveText(/^\$\d+\.\d{2}$/);
  const price = (await total.textContent())!;
  await expect(page.getByText('Convenience fee', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: `Pay ${price}` }).click();

  // The live session.
  await expect(page).toHaveURL(/\/parkdetails\?id=\d+$/);
  const id = Number(new URL(page.url()).searchParams.get('id'));
  const countdown = page.getByTestId('countdown');
  await expect(countdown).toHaveText(/^(1:00:00|59:\d\d)$/);
  await expect(page.getByText(zone.ZoneNumber).first()).toBeVisible();

  // The countdown counts on the device's clock: 10 s later it shows 10 s less, to the second.
  await pauseClock(page);
  // A tick that fell due as the clock paused may still be rendering (React commits on a real-time
  // message, not a timer): read the countdown once it holds still.
  const shown = await settled(page, countdown);
  // runFor fires every tick on its way (fastForward would fire the interval once, at the end:
  // 10 s plus the part of a second since the last tick, sometimes a second too many).
  await page.clock.runFor(10_000);
  await expect(countdown).toHaveText(countdownText(shown - 10));
  // The phone sleeps for 20 minutes of device time, but the server's clock says almost no time
  // passed: on waking the countdown goes back to the server's time, not 39 minutes.
  await page.clock.fastForward('20:00');
  await page.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })));
  // React Query hands its results over on setTimeout(0): let the paused clock run a little each time.
  await expect
    .poll(async () => {
      await page.clock.runFor(200);
      return seconds(await countdown.textContent());
    })
    .toBeGreaterThan(58 * 60);
  await page.clock.resume();

  // Extend by 30 minutes (no second fee).
  await page.getByRole('button', { name: 'Extend' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('duration')).toHaveText('30 min');
  await expect(dialog.getByText('Convenience fee (paid at the start)')).toBeVisible();
  const extPrice = (await dialog.getByTestId('quote-total').textContent())!;
  await dialog.getByRole('button', { name: `Pay ${extPrice}` }).click();
  await expect(dialog).toBeHidden();
  await expect(countdown).toHaveText(/^1:(30:00|29:\d\d)$/);
  await expect(page.getByText(/· 90 minutes$/)).toBeVisible();

  // Stop: confirm, the receipt.
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, stop' }).click();
  await expect(page).toHaveURL(new RegExp(`/ClosingReceipt\\?id=${id}$`));
  const session = (await (await request.get(`/api/Parking/Session/${id}`, { headers })).json()) as {
    AmountPaid: number;
    DurationMinutes: number;
    PlateNumber: string;
  };
  await expect(page.getByTestId('session-id')).toHaveText(String(id));
  for (const [label, value] of <[string, string][]>[
    ['Duration (Minutes)', String(session.DurationMinutes)],
    ['Amount Paid', money(session.AmountPaid)],
    ['Paid Via', 'Wallet'],
    ['Payment Status', 'Paid'],
    ['Vehicle Make', 'TOYOTA'],
    ['Model', 'CAMRY'],
    ['Vehicle Plate #', session.PlateNumber],
    ['State', 'TX'],
    ['Auto Session Used', 'No'],
    ['Auto Extended Used', 'No'],
  ]) {
    await expect(
      page.getByRole('term').filter({ hasText: new RegExp(`^${label.replace(/[()#]/g, '\\$&')}$`) }),
    ).toBeVisible();
    await expect(
      page
        .getByRole('definition')
        .filter({ hasText: new RegExp(`^${value.replace(/[$.()]/g, '\\$&')}$`) })
        .first(),
    ).toBeVisible();
  }
  await expect(page.getByText('Vehicle Information')).toBeVisible();
  // Stopped within a minute of the start: one minute kept, the rest refunded; the fee stays.
  expect(session.DurationMinutes).toBe(1);

  // The wallet: charged, refunded, and the ledger agrees with the balance.
  const left = await balance(request, headers);
  expect(left).toBeCloseTo(20 - session.AmountPaid, 2);
  const tx = (await (await request.get('/api/Wallet/Transactions', { headers })).json()) as {
    Items: { Kind: string; Amount: number }[];
  };
  const sum = tx.Items.reduce((a, i) => a + Math.round(i.Amount * 100), 0);
  expect(sum).toBe(Math.round(left * 100));
  expect(tx.Items.map((i) => i.Kind).sort()).toEqual(['parking', 'parking', 'refund', 'top-up']);
  await page.goto('/dashboard');
  await expect(page.getByText(money(left))).toBeVisible();
  // /account: the balance, and the ledger newest first: the refund, the extension, the start, the top-up.
  await page.goto('/account');
  await expect(page.getByRole('region', { name: 'Current Balance' })).toContainText(money(left));
  const rows = page.getByTestId('transactions').getByRole('listitem');
  const signed = (n: number) => (n > 0 ? `+${money(n)}` : `-${money(-n)}`);
  await expect(rows).toHaveCount(4);
  for (const [i, [label, item]] of (<[string, { Amount: number }][]>[
    ['Parking refund', tx.Items[0]!],
    ['Parking', tx.Items[1]!],
    ['Parking', tx.Items[2]!],
    ['Money added', tx.Items[3]!],
  ]).entries()) {
    await expect(rows.nth(i)).toContainText(label);
    await expect(rows.nth(i)).toContainText(signed(item.Amount));
  }
  expect(tx.Items[3]).toMatchObject({ Kind: 'top-up', Amount: 20 });
  expect(tx.Items[0]!.Kind).toBe('refund');

  // Back from the receipt goes where the driver came from (home), never to a new park; OK goes home.
  await page.goto(`/ClosingReceipt?id=${id}`);
  await expect(page.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/homepage');
  await page.getByRole('link', { name: 'OK' }).click();
  await expect(page).toHaveURL(/\/homepage$/);
});

test('Auto Start: Continue pays at once for the default vehicle and duration', async ({ page, request }) => {
  const { headers, vehicles } = await driver(page, request, { fund: 20 });
  const zone = await payableZone(request, headers, vehicles[0]!);
  expect(
    (await request.post('/api/Account/ParkingOptions', { headers, data: { AutoStartParking: true } })).ok(),
  ).toBeTruthy();
  await page.goto(`/confirmlocation?zone=${zone.ZoneId}`);
  await expect(page.getByText(/^Auto Start: E2E\d+ for 60 minutes$/)).toBeVisible();
  const button = page.getByRole('button', { name: /^Continue · Pay \$\d+\.\d{2}$/ });
  await button.click();
  await expect(page).toHaveURL(/\/parkdetails\?id=\d+$/);
  await page.getByRole('button', { name: 'Stop' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Yes, stop' }).click();
  await expect(page).toHaveURL(/\/ClosingReceipt\?id=\d+$/);
  const row = page
    .getByRole('term')
    .filter({ hasText: /^Auto Session Used$/ })
    .locator('..');
  await expect(row.getByRole('definition')).toHaveText('Yes');
});

test('a Start whose answer is lost after the server paid it is asked again with its key: one session, one charge', async ({
  page,
  request,
}) => {
  const { headers, vehicles } = await driver(page, request, { fund: 20 });
  const zone = await payableZone(request, headers, vehicles[0]!);
  expect(
    (await request.post('/api/Account/ParkingOptions', { headers, data: { AutoStartParking: true } })).ok(),
  ).toBeTruthy();
  const before = await balance(request, headers);
  // The first Start reaches the server and commits; its answer never reaches the app.
  let paid: { SessionId: number; AmountPaid: number } | null = null;
  const sentKeys: string[] = [];
  await page.route('**/api/Parking/Start', async (route) => {
    sentKeys.push(route.request().headers()['idempotency-key'] ?? '');
    if (paid) return route.continue();
    paid = (await (await route.fetch()).json()) as { SessionId: number; AmountPaid: number };
    await route.abort('connectionreset');
  });
  await page.goto(`/confirmlocation?zone=${zone.ZoneId}`);
  await page.getByRole('button', { name: /^Continue · Pay \$\d+\.\d{2}$/ }).click();
  await expect(page).toHaveURL(/\/parkdetails\?id=\d+$/);
  expect(paid).not.toBeNull();
  expect(page.url()).toContain(`id=${paid!.SessionId}`);
  expect(sentKeys).toHaveLength(2);
  expect(sentKeys[1]).toBe(sentKeys[0]);
  // Charged once: the balance went down by one session's amount, and the member has one session running.
  expect(await balance(request, headers)).toBeCloseTo(before - paid!.AmountPaid, 2);
  const active = (await (await request.get('/api/Parking/Active', { headers })).json()) as { Sessions: unknown[] };
  expect(active.Sessions).toHaveLength(1);
});

test('a short balance: the quote says so, offers Add Money and Pay waits', async ({ page, request }) => {
  const { headers, vehicles } = await driver(page, request);
  const zone = await payableZone(request, headers, vehicles[0]!);
  await page.goto(`/SelectVehicle?zone=${zone.ZoneId}`);
  await expect(
    page.getByRole('alert').filter({ hasText: /^Your balance is \$0\.00: not enough for \$\d+\.\d{2}\./ }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Add Money' })).toHaveAttribute('href', '/addmoney');
  await expect(page.getByRole('button', { name: /^Pay \$/ })).toBeDisabled();
});

test('on the page clock: the end of the time opens the receipt, and the banner appears when 10 minutes are left', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  await page.clock.install();
  const { headers, vehicles } = await driver(page, request, { fund: 20, plates: ['CLOCK1', 'CLOCK2'] });
  const zone = await payableZone(request, headers, vehicles[0]!);
  // The server's time runs for real; the page's clock can only run ahead of it between two reads
  // of the server's clock (every 30 s). So the page opens once the moment is less than 25 s away:
  // the end of a 1-minute session, then 10 minutes before the end of a 12-minute one.
  const ending = (await start(request, headers, zone.ZoneId, vehicles[0]!, 1)).SessionId;
  const banner = (await start(request, headers, zone.ZoneId, vehicles[1]!, 12)).SessionId;
  const secondsLeft = async (id: number) => {
    const s = (await (await request.get(`/api/Parking/Session/${id}`, { headers })).json()) as {
      EndsAt: string;
      ServerTime: string;
    };
    return (Date.parse(s.EndsAt) - Date.parse(s.ServerTime)) / 1000;
  };

  // Ending by time: the countdown reaches 0:00 and the receipt opens.
  await expect.poll(() => secondsLeft(ending), { timeout: 60_000, intervals: [1_000] }).toBeLessThan(25);
  await page.goto(`/parkdetails?id=${ending}`);
  await expect(page.getByTestId('countdown')).toHaveText(/^0:\d\d$/);
  await pauseClock(page);
  await expect(page).toHaveURL(new RegExp(`/parkdetails\\?id=${ending}$`));
  await page.clock.fastForward(Math.ceil((await secondsLeft(ending)) + 2) * 1000);
  await expect(page).toHaveURL(new RegExp(`/ClosingReceipt\\?id=${ending}$`));
  await page.clock.resume();

  // The reminder banner: not there at 10:2x, there once the page's clock passes 10:00.
  await expect.poll(() => secondsLeft(banner), { timeout: 120_000, intervals: [1_000] }).toBeLessThan(600 + 25);
  await page.goto('/homepage');
  await expect(page.getByRole('link', { name: new RegExp(`^Zone ${zone.ZoneNumber}, CLOCK2:`) })).toBeVisible();
  await pauseClock(page);
  const reminder = page.getByRole('status').and(page.locator(`[href="/parkdetails?id=${banner}"]`));
  const before = await secondsLeft(banner);
  expect(before).toBeGreaterThan(600);
  await expect(reminder).toHaveCount(0);
  await page.clock.fastForward(Math.ceil(before - 600 + 5) * 1000);
  await expect(reminder).toHaveText(`Your parking in zone ${zone.ZoneNumber} ends in 10 minutes.`);
});

test('a wrong plate is corrected within 5 minutes; a reminder reaches the outbox and the app; once in Hindi', async ({
  page,
  request,
}) => {
  const { member, headers, vehicles } = await driver(page, request, { fund: 20, plates: ['WRONG1', 'RIGHT2'] });
  const zone = await payableZone(request, headers, vehicles[0]!);
  // Ten minutes: the reminder is due at once (the server's jobs tick every 15 s).
  const id = (await start(request, headers, zone.ZoneId, vehicles[0]!, 10)).SessionId;
  await page.goto(`/parkdetails?id=${id}`);
  await expect(page.getByTestId('plate')).toHaveText('WRONG1');
  await page.getByRole('combobox', { name: 'Vehicle' }).selectOption({ label: 'RIGHT2 (TX)' });
  await page.getByRole('button', { name: 'Use this vehicle' }).click();
  await expect(page.getByTestId('plate')).toHaveText('RIGHT2');

  // The in-app banner, and the SMS stand-in.
  await expect(
    page
      .getByRole('status')
      .filter({ hasText: new RegExp(`^Your parking in zone ${zone.ZoneNumber} ends in (10|9) minutes\\.$`) }),
  ).toBeVisible();
  await expect
    .poll(
      async () => {
        const rows = (await (await request.get(`/api/Dev/Outbox?to=${member.PhoneNumber}&limit=5`)).json()) as {
          Body: string;
        }[];
        // The job ticks every 15 s: it may have reminded before the plate was corrected.
        return rows.some(
          (r) => /^ParkIt: your parking for (WRONG1|RIGHT2) in zone /.test(r.Body) && r.Body.includes('ends at'),
        );
      },
      { timeout: 30_000, message: 'a reminder in the outbox' },
    )
    .toBe(true);

  // Hindi: the receipt's labels.
  await page.evaluate(() => localStorage.setItem('language', 'hi'));
  await request.post('/api/Parking/Stop', { headers, data: { SessionId: id } });
  await page.goto(`/ClosingReceipt?id=${id}`);
  await expect(page.getByText('भुगतान की गई राशि')).toBeVisible();
  await expect(page.getByText('वाहन जानकारी')).toBeVisible();
  await expect(page.getByRole('link', { name: 'ठीक है' })).toBeVisible();
});

test('Quick Park as a guest with a verified phone and a sandbox card, then register with that phone and see the session', async ({
  page,
  request,
}) => {
  // A zone that charges now, found as the demo member (the guest types its number from the sign).
  const demo = authHeaders(await apiSignIn(request, 'demo', 'parkit-demo'));
  const demoVehicle = (
    (await (await request.get('/api/Vehicle/List', { headers: demo })).json()) as { VehicleID: number }[]
  )[0]!.VehicleID;
  const zone = await payableZone(request, demo, demoVehicle);
  const member = newMemberData();
  const plate = `QP${member.PhoneNumber.slice(-5)}`;

  await continueAsGuest(page);
  await page.goto('/QuickParkRegister');
  await page.getByLabel('Mobile Number').fill(member.PhoneNumber);
  await page.getByRole('button', { name: 'Send code' }).click();
  await page.getByLabel('Verification code').fill(await readCode(request, member.PhoneNumber));
  await page.getByRole('button', { name: 'Verify' }).click();
  await page.getByLabel('Zone number').fill(zone.ZoneNumber);
  await page.getByLabel('Enter Vehicle Plate #').fill(plate);
  await page.getByLabel('State').selectOption('TX');
  await page.getByRole('button', { name: 'See the price' }).click();
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Month').fill('12');
  await page.getByLabel('Year').fill('2099');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).click();
  await expect(page.getByTestId('countdown')).toHaveText(/^(1:00:00|59:\d\d)$/);

  // The receipt by SMS, with a link that opens the session without an account.
  let link = '';
  await expect
    .poll(async () => {
      const rows = (await (await request.get(`/api/Dev/Outbox?to=${member.PhoneNumber}&limit=5`)).json()) as {
        Body: string;
      }[];
      link =
        /(\/QuickParkRegister\?session=\d+&token=\S+)/.exec(
          rows.find((r) => r.Body.includes('Your session:'))?.Body ?? '',
        )?.[1] ?? '';
      return link;
    })
    .not.toBe('');
  const fresh = await page
    .context()
    .browser()!
    .newContext({ viewport: { width: 390, height: 844 } });
  const phone = await fresh.newPage();
  await phone.goto(`http://127.0.0.1:${process.env.E2E_PORT ?? 3210}${link}`);
  await expect(phone.getByTestId('countdown')).toBeVisible();
  await expect(phone.getByText(plate)).toBeVisible();
  // From the link: Extend 30 minutes, paid by the same card; then Stop, the unused minutes back to the card.
  await phone.getByRole('button', { name: 'Extend' }).click();
  const extend = phone.getByRole('dialog', { name: 'Extend' });
  await expect(extend.getByTestId('duration')).toHaveText('30 min');
  await extend.getByRole('button', { name: /^Pay \$\d+\.\d{2}$/ }).click();
  await expect(extend).toBeHidden();
  await expect(phone.getByTestId('countdown')).toHaveText(/^1:(30:00|29:\d\d)$/);
  await phone.getByRole('button', { name: 'Stop' }).click();
  await expect(phone.getByRole('dialog').getByText('Unused whole minutes go back to your card.')).toBeVisible();
  await phone.getByRole('dialog').getByRole('button', { name: 'Yes, stop' }).click();
  await expect(phone.getByRole('link', { name: 'Register with this number to keep your sessions' })).toBeVisible();
  await expect
    .poll(async () => {
      const rows = (await (await request.get(`/api/Dev/Outbox?to=${member.PhoneNumber}&limit=5`)).json()) as {
        Body: string;
      }[];
      return rows.some((r) => r.Body.includes(`to extend ${plate}`));
    })
    .toBe(true);
  await fresh.close();

  // Registering with that phone carries the session (now stopped) into the account: its receipt opens.
  const sessionId = Number(/session=(\d+)/.exec(link)![1]);
  await page.evaluate(() => localStorage.clear());
  await registerNewMember(page, request, { PhoneNumber: member.PhoneNumber });
  await page.goto(`/ClosingReceipt?id=${sessionId}`);
  await expect(page.getByTestId('session-id')).toHaveText(String(sessionId));
  await expect(page.getByRole('definition').filter({ hasText: new RegExp(`^${plate}$`) })).toBeVisible();
  await expect(page.getByRole('definition').filter({ hasText: /^Card$/ })).toBeVisible();
});

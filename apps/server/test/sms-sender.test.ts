import { sql } from 'drizzle-orm';
import { pino } from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config.ts';
import { queryRows } from '../src/db/client.ts';
import { enqueue } from '../src/infra/outbox-repository.ts';
import { MAX_SMS_ATTEMPTS, e164, smsSender } from '../src/infra/sms/sms-sender.ts';
import { freshDatabase } from './helpers.ts';
import { taken, twilioGateway } from './support/twilio-gateway.ts';

/**
 * The SMS job (docs/operations.md#the-outbox) on PGlite and PostgreSQL, against a stand-in that
 * speaks Twilio's Messages API: each text goes once the gateway takes it (a 503 first is tried
 * again after its back-off), a number the gateway refuses is given up, e-mail is left alone, and
 * the logs never hold the number nor the text. The crash test is sms-sender-crash.test.ts.
 */
const database = await freshDatabase();
afterAll(() => database.close());
const { db } = database;
const SID = `AC${'a1'.repeat(16)}`;
const TOKEN = 'test-auth-token-0123456789';
const FROM = '+15125550100';

const logged: string[] = [];
// A real logger, its lines kept: what production would write.
const log = pino({ level: 'info' }, { write: (line: string) => void logged.push(line) });
const rows = () =>
  queryRows<{ recipient: string; channel: string; attempts: number; sent: boolean; failed: boolean }>(
    db,
    sql`select recipient, channel, attempts, sent_at is not null as sent, failed_at is not null as failed
          from outbox order by id`,
  );

describe('the SMS job', () => {
  it('sends each text once the gateway takes it, gives up a refused number, and leaves e-mail alone', async () => {
    // Each number's first try is a 503; 5125550199 is refused (400) for good.
    const gateway = await twilioGateway((to, before) => (to === '+15125550199' ? 400 : before === 0 ? 503 : 201));
    try {
      const send = smsSender({ apiUrl: gateway.url, accountSid: SID, authToken: TOKEN, from: FROM, log });
      await enqueue(db, 'sms', '5125550101', 'Your ParkIt code is 123456');
      await enqueue(db, 'sms', '5125550102', 'Your ParkIt code is 654321');
      await enqueue(db, 'sms', '5125550199', 'Your ParkIt code is 111111');
      await enqueue(db, 'email', 'driver@example.org', 'Your receipt');
      const t0 = new Date();
      expect(await send(db, t0)).toBe(0);
      // Claimed: not due again before the back-off (30 s).
      expect(await send(db, new Date(t0.getTime() + 10_000))).toBe(0);
      expect(gateway.hits).toHaveLength(3);
      expect(await send(db, new Date(t0.getTime() + 31_000))).toBe(2);
      expect(await send(db, new Date(t0.getTime() + 3_600_000))).toBe(0);

      expect(taken(gateway.hits)).toEqual([
        { To: '+15125550101', From: FROM, Body: 'Your ParkIt code is 123456' },
        { To: '+15125550102', From: FROM, Body: 'Your ParkIt code is 654321' },
      ]);
      for (const h of gateway.hits) {
        expect(h.path).toBe(`/2010-04-01/Accounts/${SID}/Messages.json`);
        expect(h.authorization).toBe(`Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}`);
      }
      expect(await rows()).toEqual([
        { recipient: '5125550101', channel: 'sms', attempts: 2, sent: true, failed: false },
        { recipient: '5125550102', channel: 'sms', attempts: 2, sent: true, failed: false },
        { recipient: '5125550199', channel: 'sms', attempts: 1, sent: false, failed: true },
        { recipient: 'driver@example.org', channel: 'email', attempts: 0, sent: false, failed: false },
      ]);
      // The logs name rows and statuses: never a number nor a code.
      expect(logged.length).toBeGreaterThan(0);
      for (const secret of ['123456', '654321', '111111', '5125550', 'ParkIt code'])
        expect(logged.join('\n')).not.toContain(secret);
    } finally {
      await gateway.close();
    }
  });

  it('a gateway that never answers well: the text is given up after its last attempt', async () => {
    const gateway = await twilioGateway(() => 500);
    try {
      await db.execute(sql`delete from outbox`);
      const send = smsSender({ apiUrl: gateway.url, accountSid: SID, authToken: TOKEN, from: FROM, log });
      await enqueue(db, 'sms', '5125550103', 'Your ParkIt code is 222222');
      for (let i = 0; i < MAX_SMS_ATTEMPTS + 2; i++) await send(db, new Date(Date.now() + i * 3_600_000));
      expect(gateway.hits).toHaveLength(MAX_SMS_ATTEMPTS);
      expect(await rows()).toEqual([
        { recipient: '5125550103', channel: 'sms', attempts: MAX_SMS_ATTEMPTS, sent: false, failed: true },
      ]);
    } finally {
      await gateway.close();
    }
  });

  it('writes numbers as E.164, and takes its settings all together or not at all', () => {
    expect(e164('5125550101')).toBe('+15125550101');
    expect(e164('447700900123')).toBe('+447700900123');
    const base = { NODE_ENV: 'test' };
    expect(() => loadConfig({ ...base, TWILIO_ACCOUNT_SID: SID })).toThrow(/set together, or none/);
    expect(() =>
      loadConfig({ ...base, TWILIO_ACCOUNT_SID: 'AC1', TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: FROM }),
    ).toThrow(/TWILIO_ACCOUNT_SID is AC/);
    expect(() =>
      loadConfig({ ...base, TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: '5125550100' }),
    ).toThrow(/E\.164/);
    expect(loadConfig({ ...base, TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: FROM })).toMatchObject(
      {
        TWILIO_FROM: FROM,
        TWILIO_API_URL: 'https://api.twilio.com',
      },
    );
  });
});

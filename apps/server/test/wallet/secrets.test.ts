import { Writable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { buildTestApp, registerAndSignIn } from '../helpers.ts';
import { addMoney } from './helpers.ts';

// The app with its logger on at the most talkative level, every line kept.
const lines: string[] = [];
const stream = new Writable({
  write(chunk: Buffer, _enc, done) {
    lines.push(chunk.toString());
    done();
  },
});
const { app: instance, database } = await buildTestApp({ ADDRESS_RATE_LIMIT_SCALE: 1000 }, { logStream: stream });

const NUMBERS = ['4242424242424242', '4000000000000002', '4000000000000341', '4000000000009995', '4242424242424241'];
/** Declined when added (the card's verification): the refusal's path is checked too. */
const DECLINED_AT_SETUP = '4000000000000002';

describe('card numbers', () => {
  it('never reach the database or the logs', async () => {
    const a = await registerAndSignIn(instance);
    for (const n of NUMBERS) {
      for (const spaced of [n, n.replace(/(\d{4})/g, '$1 ').trim()]) {
        const tok = await instance.inject({
          method: 'POST',
          url: '/api/Sandbox/Tokens',
          payload: { Number: spaced, ExpMonth: 12, ExpYear: 2099, Cvc: '987' },
        });
        if (tok.statusCode === 201) {
          const add = await instance.inject({
            method: 'POST',
            url: '/api/PaymentMethods/Add',
            headers: a.headers,
            payload: { Token: tok.json<{ Token: string }>().Token },
          });
          expect(add.statusCode).toBe(n === DECLINED_AT_SETUP ? 402 : 201);
        }
      }
    }
    // A malformed body and a decline go through the error paths too.
    await instance.inject({
      method: 'POST',
      url: '/api/Sandbox/Tokens',
      headers: { 'content-type': 'application/json' },
      payload: `{"Number":"${NUMBERS[0]}",`,
    });
    await instance.inject({
      method: 'POST',
      url: '/api/Sandbox/Tokens',
      payload: { Number: NUMBERS[0], ExpMonth: 'x', ExpYear: 2099, Cvc: '1' },
    });
    expect((await addMoney(instance, a, { Amount: 20 })).statusCode).toBe(200);

    const tables = await queryRows<{ table_name: string }>(
      database.db,
      sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    expect(tables.length).toBeGreaterThan(10);
    let dump = '';
    for (const { table_name } of tables) {
      const rows = await queryRows<{ r: string }>(
        database.db,
        sql`select t::text as r from ${sql.identifier(table_name)} t`,
      );
      dump += rows.map((r) => r.r).join('\n');
    }
    expect(dump).toContain('4242'); // last 4 are kept
    const log = lines.join('');
    expect(log.length).toBeGreaterThan(1000);
    for (const n of NUMBERS) {
      expect(dump).not.toContain(n);
      expect(log).not.toContain(n);
      expect(log).not.toContain(n.replace(/(\d{4})/g, '$1 ').trim());
    }
    expect(log).not.toMatch(/"(Number|Cvc)"\s*:/); // no request body is ever logged
  });
});

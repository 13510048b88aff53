import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../src/db/client.ts';
import { createKey } from '../src/enforcement/api-key-repository.ts';
import {
  AUDIT_ANSWER_DAYS,
  AUDIT_REFUSAL_DAYS,
  pruneExpired,
  pruneJob,
  PRUNE_EVERY_MS,
} from '../src/infra/jobs/prune.ts';
import { buildTestApp, registerAndSignIn } from './helpers.ts';

// Expired tokens, codes, outbox messages and rate-limit windows are deleted by a job;
// nothing that may still be read is.
const { app, database } = await buildTestApp();
const { db } = database;
const now = new Date('2026-11-23T12:00:00Z');
const ago = (hours: number) => new Date(now.getTime() - hours * 3_600_000).toISOString();
const ahead = (hours: number) => ago(-hours);

const labels = async (table: 'refresh_tokens' | 'otp_codes' | 'outbox' | 'rate_limits', column: string) =>
  (
    await queryRows<{ label: string }>(
      db,
      sql`SELECT ${sql.raw(column)} AS label FROM ${sql.raw(table)} WHERE ${sql.raw(column)} LIKE 'prune-%' ORDER BY 1`,
    )
  ).map((r) => r.label);

describe('the prune job', () => {
  it('deletes only what expired', async () => {
    const who = await registerAndSignIn(app);
    const token = (label: string, expires: string) =>
      db.execute(
        sql`INSERT INTO refresh_tokens (member_id, family_id, token_hash, amr, expires_at) VALUES (${who.memberId}, ${randomUUID()}, ${label}, 'pwd', ${expires})`,
      );
    await token('prune-token-expired-2-days', ago(48));
    await token('prune-token-expired-23-hours', ago(23));
    await token('prune-token-live', ahead(24 * 30));
    const code = (label: string, expires: string) =>
      db.execute(
        sql`INSERT INTO otp_codes (phone, purpose, code_hash, expires_at) VALUES ('5125550100', 'login', ${label}, ${expires})`,
      );
    await code('prune-code-expired-2-days', ago(48));
    await code('prune-code-expired-1-hour', ago(1));
    await code('prune-code-live', ahead(0.1));
    const message = (label: string, created: string, sent: string | null) =>
      db.execute(
        sql`INSERT INTO outbox (channel, recipient, body, created_at, sent_at) VALUES ('sms', '5125550100', ${label}, ${created}, ${sent})`,
      );
    await message('prune-message-sent-2-days-ago', ago(49), ago(48));
    await message('prune-message-unsent-8-days', ago(24 * 8), null);
    await message('prune-message-sent-1-hour-ago', ago(2), ago(1));
    await message('prune-message-unsent-6-days', ago(24 * 6), null);
    const window = (label: string, start: string) =>
      db.execute(
        sql`INSERT INTO rate_limits (bucket, key, window_start, count) VALUES ('test', ${label}, ${start}, 3)`,
      );
    await window('prune-window-2-days', ago(48));
    await window('prune-window-1-hour', ago(1));

    const deleted = await pruneExpired(db, now);

    expect(await labels('refresh_tokens', 'token_hash')).toEqual(['prune-token-expired-23-hours', 'prune-token-live']);
    expect(await labels('otp_codes', 'code_hash')).toEqual(['prune-code-expired-1-hour', 'prune-code-live']);
    expect(await labels('outbox', 'body')).toEqual(['prune-message-sent-1-hour-ago', 'prune-message-unsent-6-days']);
    expect(await labels('rate_limits', 'key')).toEqual(['prune-window-1-hour']);
    // Nothing else: the member's own sign-in token and code are still there.
    expect(deleted).toBe(5);
    expect((await app.inject({ method: 'GET', url: '/api/Account/Details', headers: who.headers })).statusCode).toBe(
      200,
    );
  });

  it('keeps the plate-check audit a year for answers and 30 days for refusals', async () => {
    const [op] = await queryRows<{ id: number }>(db, sql`SELECT id FROM operators ORDER BY id LIMIT 1`);
    const key = await createKey(db, op!.id);
    const audit = (label: string, outcome: string, days: number) =>
      db.execute(sql`INSERT INTO enforcement_checks (key_id, operator_id, key_prefix, zone_number, plate, plate_state, outcome, paid, checked_at)
        VALUES (${outcome === 'unauthorized' ? null : key.id}, ${outcome === 'unauthorized' ? null : op!.id}, 'pk_x', '1', ${label}, 'TX', ${outcome},
                ${outcome === 'paid' ? true : outcome === 'not_paid' ? false : null}, ${ago(days * 24)})`);
    await audit('prune-answer-366-days', 'paid', AUDIT_ANSWER_DAYS + 1);
    await audit('prune-answer-364-days', 'not_paid', AUDIT_ANSWER_DAYS - 1);
    await audit('prune-refusal-31-days', 'unauthorized', AUDIT_REFUSAL_DAYS + 1);
    await audit('prune-refusal-29-days', 'rate_limited', AUDIT_REFUSAL_DAYS - 1);
    expect(await pruneExpired(db, now)).toBe(2);
    const left = await queryRows<{ plate: string }>(
      db,
      sql`SELECT plate FROM enforcement_checks WHERE plate LIKE 'prune-%' ORDER BY 1`,
    );
    expect(left.map((r) => r.plate)).toEqual(['prune-answer-364-days', 'prune-refusal-29-days']);
  });

  it('runs on the jobs tick at most every PRUNE_EVERY_MS', async () => {
    const job = pruneJob();
    const window = (label: string) =>
      db.execute(
        sql`INSERT INTO rate_limits (bucket, key, window_start, count) VALUES ('test', ${label}, ${ago(48)}, 1)`,
      );
    await window('prune-tick-1');
    expect(await job(db, now)).toBe(1);
    await window('prune-tick-2');
    expect(await job(db, new Date(now.getTime() + PRUNE_EVERY_MS - 1))).toBe(0);
    expect(await job(db, new Date(now.getTime() + PRUNE_EVERY_MS))).toBe(1);
  });
});

import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { queryRows } from '../../src/db/client.ts';
import { ledgerEntries, members } from '../../src/db/schema/index.ts';
import { InsufficientFundsError, postEntry } from '../../src/wallet/ledger.ts';
import { buildTestApp, registerAndSignIn } from '../helpers.ts';

const { app, database } = await buildTestApp();
const db = database.db;

/** For every member: balance_cents minus the sum of their ledger (0 when they agree). */
async function mismatches() {
  return queryRows<{ id: number; balance: number; ledger: number }>(
    db,
    sql`select m.id, m.balance_cents as balance, coalesce(sum(l.amount_cents), 0)::int as ledger
        from members m left join ledger_entries l on l.member_id = m.id
        group by m.id having m.balance_cents <> coalesce(sum(l.amount_cents), 0)`,
  );
}

describe('the ledger', () => {
  it('posts a credit and a debit and keeps the balance beside them', async () => {
    const a = await registerAndSignIn(app);
    const credit = await db.transaction((tx) =>
      postEntry(tx, { memberId: a.memberId, amountCents: 1234, kind: 'top-up', reference: 'test:1' }),
    );
    expect(credit.balanceCents).toBe(1234);
    const debit = await db.transaction((tx) =>
      postEntry(tx, { memberId: a.memberId, amountCents: -234, kind: 'parking', reference: 'session:1' }),
    );
    expect(debit.balanceCents).toBe(1000);
    const rows = await db.select().from(ledgerEntries).where(eq(ledgerEntries.memberId, a.memberId));
    expect(rows.map((r) => [r.amountCents, r.kind, r.balanceAfterCents])).toEqual([
      [1234, 'top-up', 1234],
      [-234, 'parking', 1000],
    ]);
    expect(await mismatches()).toEqual([]);
  });

  it('refuses a debit below zero with InsufficientFundsError and writes nothing', async () => {
    const a = await registerAndSignIn(app);
    await db.transaction((tx) =>
      postEntry(tx, { memberId: a.memberId, amountCents: 500, kind: 'top-up', reference: 't' }),
    );
    await expect(
      db.transaction((tx) =>
        postEntry(tx, { memberId: a.memberId, amountCents: -501, kind: 'parking', reference: 's' }),
      ),
    ).rejects.toBeInstanceOf(InsufficientFundsError);
    const [m] = await db.select().from(members).where(eq(members.id, a.memberId));
    expect(m?.balanceCents).toBe(500);
    expect(await db.select().from(ledgerEntries).where(eq(ledgerEntries.memberId, a.memberId))).toHaveLength(1);
  });

  it('has a database CHECK that refuses a negative balance even from raw SQL', async () => {
    const a = await registerAndSignIn(app);
    await expect(db.execute(sql`update members set balance_cents = -1 where id = ${a.memberId}`)).rejects.toThrow();
  });

  it('keeps ledger == balance after 200 concurrent credits and debits on one member', async () => {
    const a = await registerAndSignIn(app);
    await db.transaction((tx) =>
      postEntry(tx, { memberId: a.memberId, amountCents: 1000, kind: 'top-up', reference: 'seed' }),
    );
    const ops = Array.from({ length: 200 }, (_, i) =>
      db
        .transaction((tx) =>
          postEntry(tx, {
            memberId: a.memberId,
            amountCents: i % 2 === 0 ? 700 : -900,
            kind: i % 2 === 0 ? 'top-up' : 'parking',
            reference: `op:${i}`,
          }),
        )
        .then(
          () => 'ok' as const,
          (err: unknown) => (err instanceof InsufficientFundsError ? ('refused' as const) : Promise.reject(err)),
        ),
    );
    const results = await Promise.all(ops);
    const ok = results.filter((r) => r === 'ok').length;
    expect(ok).toBeGreaterThan(100);
    const [m] = await db.select().from(members).where(eq(members.id, a.memberId));
    expect(m!.balanceCents).toBeGreaterThanOrEqual(0);
    expect(await mismatches()).toEqual([]);
    const entries = await db.select().from(ledgerEntries).where(eq(ledgerEntries.memberId, a.memberId));
    expect(entries).toHaveLength(1 + ok);
    expect(entries.every((e) => e.balanceAfterCents >= 0)).toBe(true);
  });
});

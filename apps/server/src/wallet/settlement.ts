import { and, asc, count, desc, eq, gt, sql } from 'drizzle-orm';
import {
  centsToAmount,
  SETTLEMENT_MESSAGES as M,
  type SettlementPeriod,
  type Statement,
  type StatementDetail,
} from '@parkit/contract';
import { queryRows, type Db, type Executor, type Tx } from '../db/client.ts';
import { operators, settlementLines, settlementStatements } from '../db/schema/index.ts';
import { audit, type Actor } from '../infra/audit-log.ts';
import { HttpError } from '../lib/http-error.ts';
import type { Language } from '../lib/language.ts';
import { settlementText, type SettlementLabel } from './settlement-labels.ts';

/**
 * Settlement statements (docs/product.md#the-operators-console): per operator, per day or month of
 * its time zone. Issuing one writes, in one transaction under the operator's row lock (so issues
 * of one operator queue), the statement and its lines: every money movement of the operator's
 * sessions made before the cut-off (the period's end, or now when that is sooner) that no earlier
 * statement of the kind took: wallet payments and refunds from the ledger (`session:<id>…`
 * references), Quick Park card payments and recorded card refunds. Its sums are the lines' sums.
 * Nothing updates a statement afterwards: a refund after it lands in the next one.
 */

type StatementRow = typeof settlementStatements.$inferSelect;

const notFound = () => new HttpError(404, M.statementNotFound);

function toView(s: StatementRow, lineCount: number): Statement {
  return {
    StatementId: s.id,
    Period: s.periodKind === 'month' ? 'month' : 'day',
    Start: s.periodStart,
    CutOff: s.cutOff.toISOString(),
    Gross: centsToAmount(s.grossCents),
    Refunds: centsToAmount(s.refundsCents),
    Fees: centsToAmount(s.feesCents),
    Net: centsToAmount(s.netCents),
    LineCount: lineCount,
    IssuedBy: s.issuedByName,
    IssuedAt: s.issuedAt.toISOString(),
  };
}

/** The period's first day as YYYY-MM-DD: a day as given, a month's first. */
export const periodStartOf = (period: SettlementPeriod, start: string) => (period === 'day' ? start : `${start}-01`);

/** The period's bounds in the operator's time zone, and whether it has begun. */
async function bounds(tx: Tx, operatorId: number, period: SettlementPeriod, start: string) {
  const step = period === 'day' ? '1 day' : '1 month';
  const [b] = await queryRows<{ begun: boolean; cut_off: Date | string }>(
    tx,
    sql`select (${start}::date::timestamp at time zone o.timezone) <= now() as begun,
               least((((${start}::date + ${step}::interval))::timestamp at time zone o.timezone), now()) as cut_off
        from operators o where o.id = ${operatorId}`,
  );
  if (!b) throw notFound();
  return { begun: Boolean(b.begun), cutOff: new Date(b.cut_off) };
}

/** Writes the statement's lines (style 2: an INSERT … SELECT of three sources) and answers their sums. */
async function writeLines(tx: Tx, statementId: number, operatorId: number, period: SettlementPeriod, cutOff: Date) {
  const [sums] = await queryRows<{ gross: number | string; refunds: number | string; fees: number | string }>(
    tx,
    sql`with moved as (
          select 'ledger' as source, l.id as source_id, s.id as session_id, -l.amount_cents as amount,
                 case when l.kind = 'parking' and l.reference = 'session:' || s.id then s.fee_cents else 0 end as fee,
                 l.created_at as at
            from ledger_entries l
            join parking_sessions s on s.id = (substring(l.reference from '^session:(\\d+)'))::int
            join zones z on z.id = s.zone_id
           where z.operator_id = ${operatorId} and l.kind in ('parking', 'refund') and l.created_at < ${cutOff}
          union all
          select 'card-payment', cp.id, s.id, cp.amount_cents,
                 case when cp.id = (select min(c2.id) from parking_card_payments c2 where c2.session_id = s.id)
                      then s.fee_cents else 0 end,
                 cp.created_at
            from parking_card_payments cp
            join parking_sessions s on s.id = cp.session_id
            join zones z on z.id = s.zone_id
           where z.operator_id = ${operatorId} and cp.created_at < ${cutOff}
          union all
          select 'card-refund', wc.id, s.id, -wc.amount_cents, 0, wc.created_at
            from wallet_charges wc
            join parking_card_payments cp on cp.id = wc.card_payment_id
            join parking_sessions s on s.id = cp.session_id
            join zones z on z.id = s.zone_id
           where z.operator_id = ${operatorId} and wc.kind = 'quick-park-refund' and wc.status = 'recorded'
             and wc.created_at < ${cutOff}
        ), written as (
          insert into settlement_lines (statement_id, period_kind, source, source_id, session_id, amount_cents, fee_cents, at)
          select ${statementId}, ${period}, m.source, m.source_id, m.session_id, m.amount, m.fee, m.at
            from moved m
           where not exists (select 1 from settlement_lines sl
                              where sl.period_kind = ${period} and sl.source = m.source and sl.source_id = m.source_id)
          returning amount_cents, fee_cents
        )
        select coalesce(sum(amount_cents) filter (where amount_cents > 0), 0)::int as gross,
               coalesce(-sum(amount_cents) filter (where amount_cents < 0), 0)::int as refunds,
               coalesce(sum(fee_cents), 0)::int as fees
          from written`,
  );
  return { gross: Number(sums?.gross ?? 0), refunds: Number(sums?.refunds ?? 0), fees: Number(sums?.fees ?? 0) };
}

/**
 * Issues the operator's statement of a day or month (`start`: YYYY-MM-DD or YYYY-MM), once: the
 * same period again (even at the same moment) answers the one issued (`issued: false`). A period
 * not begun, or earlier than one issued already, is a 409. Audited as statement.issue.
 */
export async function issueStatement(
  db: Db,
  operatorId: number,
  actor: Actor,
  r: { Period: SettlementPeriod; Start: string },
): Promise<{ statement: Statement; issued: boolean }> {
  const start = periodStartOf(r.Period, r.Start);
  return db.transaction(async (tx) => {
    // Issues of one operator queue here: each sees the lines the one before took.
    const [op] = await tx
      .select({ id: operators.id })
      .from(operators)
      .where(eq(operators.id, operatorId))
      .for('no key update');
    if (!op) throw notFound();
    const [existing] = await tx
      .select()
      .from(settlementStatements)
      .where(
        and(
          eq(settlementStatements.operatorId, operatorId),
          eq(settlementStatements.periodKind, r.Period),
          eq(settlementStatements.periodStart, start),
        ),
      );
    if (existing) return { statement: toView(existing, await lineCount(tx, existing.id)), issued: false };
    const { begun, cutOff } = await bounds(tx, operatorId, r.Period, start);
    if (!begun) throw new HttpError(409, M.notStarted, [{ field: 'Start', message: M.notStarted }]);
    const [later] = await tx
      .select({ id: settlementStatements.id })
      .from(settlementStatements)
      .where(
        and(
          eq(settlementStatements.operatorId, operatorId),
          eq(settlementStatements.periodKind, r.Period),
          gt(settlementStatements.periodStart, start),
        ),
      )
      .limit(1);
    if (later) throw new HttpError(409, M.outOfOrder, [{ field: 'Start', message: M.outOfOrder }]);
    const [made] = await tx
      .insert(settlementStatements)
      .values({
        operatorId,
        periodKind: r.Period,
        periodStart: start,
        cutOff,
        grossCents: 0,
        refundsCents: 0,
        feesCents: 0,
        netCents: 0,
        issuedBy: actor.id,
        issuedByName: actor.name,
      })
      .returning();
    if (!made) throw new Error('statement was not written');
    const sums = await writeLines(tx, made.id, operatorId, r.Period, cutOff);
    const [done] = await tx
      .update(settlementStatements)
      .set({
        grossCents: sums.gross,
        refundsCents: sums.refunds,
        feesCents: sums.fees,
        netCents: sums.gross - sums.refunds - sums.fees,
      })
      .where(eq(settlementStatements.id, made.id))
      .returning();
    if (!done) throw new Error('statement vanished');
    const view = toView(done, await lineCount(tx, done.id));
    await audit(tx, {
      operatorId,
      actor,
      action: 'statement.issue',
      entity: 'statement',
      entityId: done.id,
      before: null,
      after: {
        Period: view.Period,
        Start: view.Start,
        Gross: view.Gross,
        Refunds: view.Refunds,
        Fees: view.Fees,
        Net: view.Net,
      },
    });
    return { statement: view, issued: true };
  });
}

async function lineCount(db: Executor, statementId: number): Promise<number> {
  const [c] = await db.select({ n: count() }).from(settlementLines).where(eq(settlementLines.statementId, statementId));
  return Number(c?.n ?? 0);
}

/** The operator's statements, newest period first. */
export async function statementsOf(db: Executor, operatorId: number): Promise<Statement[]> {
  const rows = await db
    .select({
      s: settlementStatements,
      n: sql<number>`(select count(*)::int from settlement_lines l where l.statement_id = ${settlementStatements.id})`,
    })
    .from(settlementStatements)
    .where(eq(settlementStatements.operatorId, operatorId))
    .orderBy(desc(settlementStatements.periodStart), desc(settlementStatements.id))
    .limit(400);
  return rows.map((r) => toView(r.s, Number(r.n)));
}

/** One statement of the operator with its lines, oldest first; 404 for another operator's. */
export async function statementOf(db: Executor, operatorId: number, statementId: number): Promise<StatementDetail> {
  const [s] = await db
    .select()
    .from(settlementStatements)
    .where(and(eq(settlementStatements.id, statementId), eq(settlementStatements.operatorId, operatorId)));
  if (!s) throw notFound();
  const lines = await db
    .select()
    .from(settlementLines)
    .where(eq(settlementLines.statementId, s.id))
    .orderBy(asc(settlementLines.at), asc(settlementLines.id));
  return {
    ...toView(s, lines.length),
    Lines: lines.map((l) => ({
      Source: l.source === 'card-payment' ? 'card-payment' : l.source === 'card-refund' ? 'card-refund' : 'ledger',
      SourceId: l.sourceId,
      SessionId: l.sessionId,
      Amount: centsToAmount(l.amountCents),
      Fee: centsToAmount(l.feeCents),
      At: l.at.toISOString(),
    })),
  };
}

const csvCell = (v: string | number) => {
  const s = String(v);
  // A cell a spreadsheet would run as a formula starts with a quote; commas and quotes are quoted.
  const safe = /^[=+\-@\t\r]/.test(s) && !/^-?\d/.test(s) ? `'${s}` : s;
  return /[",\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/**
 * The statement as CSV: its totals, then one row per line (the ledger entry or card movement it
 * covers). The labels and the header are in the console's language; the values are the same in
 * every language (ISO times, amounts with a dot), so a spreadsheet reads them alike.
 */
export function statementCsv(s: StatementDetail, lang: Language = 'en'): string {
  const t = (label: SettlementLabel) => settlementText(lang, label);
  const rows: (string | number)[][] = [
    [t('Statement'), s.StatementId],
    [t('Period'), s.Period],
    [t('Start'), s.Start],
    [t('Cut-off'), s.CutOff],
    [t('Gross'), s.Gross.toFixed(2)],
    [t('Refunds'), s.Refunds.toFixed(2)],
    [t('Fees'), s.Fees.toFixed(2)],
    [t('Net'), s.Net.toFixed(2)],
    [],
    [t('Source'), t('SourceId'), t('SessionId'), t('Amount'), t('Fee'), t('At')],
    ...s.Lines.map((l) => [l.Source, l.SourceId, l.SessionId, l.Amount.toFixed(2), l.Fee.toFixed(2), l.At]),
  ];
  return `${rows.map((r) => r.map(csvCell).join(',')).join('\r\n')}\r\n`;
}

// Settlement: a statement per operator per day or month (gross, refunds, the platform's fees, net)
// computed from the money lines of its sessions (ledger entries and Quick Park card movements),
// issued once and never changed; a refund after it lands in the next one; CSV and PDF.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import {
  SETTLEMENT_MESSAGES as M,
  type GuestToken,
  type Quote,
  type Statement,
  type StatementDetail,
} from '@parkit/contract';
import { queryRows } from '../../../src/db/client.ts';
import { stopOwned } from '../../../src/parking/index.ts';
import { concurrently, count, expectJsonNo5xx, statusCounts } from '../../concurrency.ts';
import { tableChecksums } from '../../guards/checksums.ts';
import { pdfText } from '../../support/pdf-text.ts';
import { as, expectRefused, lastCode, newMember, registerAndSignIn, type SignedIn } from '../../helpers.ts';
import { newOperator, signedInOwner, twoOperators } from '../../operator-helpers.ts';
import { addVehicle, addZone, credit, startSession } from '../../parking-helpers.ts';

const {
  app,
  db,
  A,
  B,
  ownerB,
  staff: { manager, analyst },
} = await twoOperators('Other Settlement Parking', ['manager', 'analyst'], { decorations: true });
await addZone(db, 'ST1');
const [{ id: zoneId } = { id: 0 }] = await queryRows<{ id: number }>(
  db,
  sql`select id from zones where zone_number = 'ST1'`,
);

/** The operator's local day `daysAgo` days back, YYYY-MM-DD. */
const localDay = async (daysAgo: number) =>
  (
    await queryRows<{ d: string }>(
      db,
      sql`select to_char((now() - make_interval(days => ${daysAgo})) at time zone timezone, 'YYYY-MM-DD') as d from operators where id = ${A}`,
    )
  )[0]!.d;

async function walletSession(): Promise<{ driver: SignedIn; id: number }> {
  const driver = await registerAndSignIn(app);
  await credit(db, driver.memberId, 5_000);
  const s = await startSession(app, driver, { zoneId, vehicleId: await addVehicle(app, driver), minutes: 60 });
  await stopOwned(app.wallet, { memberId: driver.memberId }, s.SessionId, new Date(Date.now() + 59.5 * 60_000));
  return { driver, id: s.SessionId };
}

async function cardSession(): Promise<number> {
  const phone = newMember().PhoneNumber;
  await app.inject({ method: 'POST', url: '/api/Parking/Guest/SendCode', payload: { PhoneNumber: phone } });
  const token = (
    await app.inject({
      method: 'POST',
      url: '/api/Parking/Guest/Verify',
      payload: { PhoneNumber: phone, Code: await lastCode(app, phone) },
    })
  ).json<GuestToken>().GuestToken;
  const post = (url: string, payload: object) =>
    app.inject({ method: 'POST', url: `/api/Parking/Guest/${url}`, payload, headers: { 'x-guest-token': token } });
  const q = (
    await post('Quote', {
      ZoneNumber: 'ST1',
      PlateNumber: `SP${randomUUID().slice(0, 4)}`,
      PlateState: 'TX',
      DurationMinutes: 60,
    })
  ).json<Quote>();
  const card = (
    await app.inject({
      method: 'POST',
      url: '/api/Sandbox/Tokens',
      payload: { Number: '4242 4242 4242 4242', ExpMonth: 12, ExpYear: 2099, Cvc: '123' },
    })
  ).json<{ Token: string }>().Token;
  const started = await post('Start', { QuoteId: q.QuoteId, CardToken: card });
  expect(started.statusCode, started.body).toBe(201);
  const id = started.json<{ SessionId: number }>().SessionId;
  await stopOwned(app.wallet, { guestPhone: phone }, id, new Date(Date.now() + 59.5 * 60_000));
  return id;
}

const refund = (sessionId: number, payload: object) =>
  as(app, manager, {
    method: 'POST',
    url: `/api/Operator/${A}/Sessions/${sessionId}/Refund`,
    payload,
    headers: { 'idempotency-key': randomUUID() },
  });
const issue = (who: SignedIn, payload: object, operatorId = A) =>
  as(app, who, { method: 'POST', url: `/api/Operator/${operatorId}/Statements`, payload });
const get = async (id: number) => {
  const res = await as(app, analyst, { method: 'GET', url: `/api/Operator/${A}/Statements/${id}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<StatementDetail>();
};

/** Every money movement of the operator's sessions, from the ledger and the card tables, in cents from the operator's side. */
async function moneyOfSessions(ids: number[]) {
  const list = sql.join(
    ids.map((i) => sql`${i}`),
    sql`, `,
  );
  const [r] = await queryRows<{ ledger: number; card: number; fees: number }>(
    db,
    sql`select
          (select coalesce(-sum(amount_cents), 0)::int from ledger_entries
            where kind in ('parking', 'refund') and (substring(reference from '^session:(\\d+)'))::int in (${list})) as ledger,
          (select coalesce(sum(amount_cents), 0)::int from parking_card_payments where session_id in (${list}))
          - (select coalesce(sum(wc.amount_cents), 0)::int from wallet_charges wc join parking_card_payments cp on cp.id = wc.card_payment_id
              where wc.status = 'recorded' and wc.kind = 'quick-park-refund' and cp.session_id in (${list})) as card,
          (select coalesce(sum(fee_cents), 0)::int from parking_sessions where id in (${list})) as fees`,
  );
  return { ledger: Number(r!.ledger), card: Number(r!.card), fees: Number(r!.fees) };
}

describe('a statement reconciles with the ledger, and is never changed', () => {
  it('covers the wallet and card sessions to the cent; a refund after it lands in the next one', async () => {
    const w = await walletSession();
    const c = await cardSession();
    expect((await refund(w.id, { Amount: 1, Reason: 'Broken meter' })).statusCode).toBe(201);
    expect((await refund(c, { Amount: 0.5, Reason: 'Card goodwill' })).statusCode).toBe(201);
    // All of it happened two days ago (the operator's time): its day's statement takes it.
    await db.execute(sql`update ledger_entries set created_at = created_at - interval '2 days'
                          where (substring(reference from '^session:(\\d+)'))::int in (${w.id}, ${c})`);
    await db.execute(
      sql`update parking_card_payments set created_at = created_at - interval '2 days' where session_id = ${c}`,
    );
    await db.execute(sql`update wallet_charges set created_at = created_at - interval '2 days'
                          where card_payment_id in (select id from parking_card_payments where session_id = ${c})`);
    const day = await localDay(2);
    const res = await issue(manager, { Period: 'day', Start: day });
    expect(res.statusCode, res.body).toBe(201);
    const first = await get(res.json<Statement>().StatementId);
    const money = await moneyOfSessions([w.id, c]);
    expect(money.ledger).toBeGreaterThan(0);
    expect(money.card).toBeGreaterThan(0);
    // To the cent: the statement's gross less refunds is what the ledger and the card tables moved.
    expect(Math.round((first.Gross - first.Refunds) * 100)).toBe(money.ledger + money.card);
    expect(Math.round(first.Fees * 100)).toBe(money.fees);
    expect(Math.round(first.Net * 100)).toBe(Math.round((first.Gross - first.Refunds - first.Fees) * 100));
    expect(Math.round(first.Refunds * 100)).toBeGreaterThanOrEqual(150);
    // Its lines are exactly the ledger entries of the sessions, and the card movements.
    const ledgerIds = await queryRows<{ id: number }>(
      db,
      sql`select id from ledger_entries where kind in ('parking', 'refund') and (substring(reference from '^session:(\\d+)'))::int = ${w.id} order by id`,
    );
    expect(
      first.Lines.filter((l) => l.Source === 'ledger')
        .map((l) => l.SourceId)
        .sort((a, b) => a - b),
    ).toEqual(ledgerIds.map((r) => Number(r.id)));
    expect(first.Lines.filter((l) => l.Source === 'card-payment')).toHaveLength(1);
    expect(first.Lines.filter((l) => l.Source === 'card-refund').length).toBeGreaterThanOrEqual(1);
    expect(Math.round(first.Lines.reduce((a, l) => a + l.Amount, 0) * 100)).toBe(money.ledger + money.card);

    // A refund now: the issued statement does not change; today's takes it.
    expect((await refund(w.id, { Amount: 0.25, Reason: 'Late correction' })).statusCode).toBe(201);
    const again = await issue(manager, { Period: 'day', Start: day });
    expect(again.statusCode).toBe(200);
    expect(await get(first.StatementId)).toEqual(first);
    const today = await issue(manager, { Period: 'day', Start: await localDay(0) });
    expect(today.statusCode, today.body).toBe(201);
    const next = await get(today.json<Statement>().StatementId);
    expect(next.Lines).toMatchObject([{ Source: 'ledger', SessionId: w.id, Amount: -0.25 }]);
    expect(next).toMatchObject({ Gross: 0, Refunds: 0.25, Fees: 0, Net: -0.25 });
    // Yesterday's now comes too late: statements are issued in order.
    expectRefused(await issue(manager, { Period: 'day', Start: await localDay(1) }), 409, 'Start', M.outOfOrder);
    // The month takes everything once, apart from the days.
    const month = await issue(manager, { Period: 'month', Start: (await localDay(0)).slice(0, 7) });
    expect([200, 201]).toContain(month.statusCode);
    // The list, the audit log.
    const list = (await as(app, analyst, { method: 'GET', url: `/api/Operator/${A}/Statements` })).json<Statement[]>();
    expect(list.map((s) => s.StatementId)).toEqual(expect.arrayContaining([first.StatementId, next.StatementId]));
    const audit = await as(app, manager, { method: 'GET', url: `/api/Operator/${A}/Audit?limit=5` });
    expect(audit.json<{ Entries: { Action: string }[] }>().Entries.map((e) => e.Action)).toContain('statement.issue');

    // CSV and PDF of the first.
    const csv = await as(app, analyst, {
      method: 'GET',
      url: `/api/Operator/${A}/Statements/${first.StatementId}/Statement.csv`,
    });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body).toContain(`Net,${first.Net.toFixed(2)}`);
    expect(csv.body.trim().split('\r\n')).toHaveLength(10 + first.Lines.length);
    const pdf = await as(app, analyst, {
      method: 'GET',
      url: `/api/Operator/${A}/Statements/${first.StatementId}/Statement.pdf`,
    });
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const { text } = await pdfText(pdf.rawPayload);
    expect(text).toContain('Settlement statement');
    expect(text).toContain(`$${first.Gross.toFixed(2)}`);
  });
});

describe("a statement's CSV and PDF in the console's language", () => {
  const file = async (kind: 'csv' | 'pdf', id: number, language?: string) => {
    const res = await as(app, analyst, {
      method: 'GET',
      url: `/api/Operator/${A}/Statements/${id}/Statement.${kind}`,
      ...(language ? { headers: { 'accept-language': language } } : {}),
    });
    expect(res.statusCode, res.body).toBe(200);
    return res;
  };

  it('English keeps its field names; Spanish and Hindi label the same rows in their words', async () => {
    // A statement with lines: the ones the test above issued.
    const list = await as(app, analyst, { method: 'GET', url: `/api/Operator/${A}/Statements` });
    const id = list.json<{ StatementId: number; LineCount: number }[]>().find((x) => x.LineCount > 0)!.StatementId;
    const s = await get(id);

    const english = (await file('csv', id)).body;
    const lines = s.Lines.map(
      (l) => `${l.Source},${l.SourceId},${l.SessionId},${l.Amount.toFixed(2)},${l.Fee.toFixed(2)},${l.At}`,
    );
    expect(english).toBe(
      [
        `Statement,${id}`,
        'Period,day',
        `Start,${s.Start}`,
        `Cut-off,${s.CutOff}`,
        `Gross,${s.Gross.toFixed(2)}`,
        `Refunds,${s.Refunds.toFixed(2)}`,
        `Fees,${s.Fees.toFixed(2)}`,
        `Net,${s.Net.toFixed(2)}`,
        '',
        'Source,SourceId,SessionId,Amount,Fee,At',
        ...lines,
        '',
      ].join('\r\n'),
    );
    expect((await file('csv', id, 'en-US,en;q=0.9')).body).toBe(english);

    const values = (csv: string) => csv.split('\r\n').map((r) => r.split(',').slice(1).join(','));
    const spanish = (await file('csv', id, 'es-US,es;q=0.9')).body;
    expect(spanish.split('\r\n')[0]).toBe(`Estado de cuenta,${id}`);
    expect(spanish.split('\r\n')[9]).toBe('Origen,Id. de origen,Id. de sesión,Monto,Cargo,Fecha');
    expect(spanish).toContain(`Neto,${s.Net.toFixed(2)}`);
    const hindi = (await file('csv', id, 'hi')).body;
    expect(hindi.split('\r\n')[9]).toBe('स्रोत,स्रोत आईडी,सत्र आईडी,राशि,शुल्क,समय');
    // The rows are the same in every language: only the first cell of a total and the header differ.
    for (const other of [spanish, hindi]) {
      expect(values(other).slice(0, 9)).toEqual(values(english).slice(0, 9));
      expect(other.split('\r\n').slice(10)).toEqual(english.split('\r\n').slice(10));
    }

    const en = (await pdfText((await file('pdf', id)).rawPayload)).text;
    expect(en).toContain('Settlement statement');
    expect(en).toContain('Platform fees');
    const es = (await pdfText((await file('pdf', id, 'es')).rawPayload)).text;
    expect(es).toContain('Estado de liquidación');
    expect(es).toContain('Cargos de la plataforma');
    expect(es).not.toContain('Settlement statement');
    const hi = (await pdfText((await file('pdf', id, 'hi-IN,hi;q=0.9')).rawPayload)).text;
    // PDF.js gives Devanagari in visual order (the i-matra before its consonant): words without it.
    for (const word of ['सकल', 'धनवापसी', 'शुद्ध', 'जारी', 'शुल्क']) expect(hi).toContain(word);
    expect(hi).toContain(`$${s.Gross.toFixed(2)}`);
    expect(hi).toContain('(America/Chicago)');
    expect(hi).not.toContain('Settlement statement');
  });
});

describe('issuing at once, and refusals', () => {
  it('8 issues of one period at once give one statement', async () => {
    // An operator of its own, so that the period is not issued yet.
    const C = await newOperator(db, 'Concurrent Settlement Parking');
    const ownerC = await signedInOwner(app, db, C);
    const day = await localDay(0);
    const results = await concurrently(8, () => issue(ownerC, { Period: 'day', Start: day }, C));
    expectJsonNo5xx(results);
    expect(statusCounts(results)).toEqual({ 201: 1, 200: 7 });
    expect(new Set(results.map((r) => r.json<Statement>().StatementId)).size).toBe(1);
    expect(
      await count(
        db,
        sql`select count(*)::int as n from settlement_statements where operator_id = ${C} and period_kind = 'day' and period_start = ${day}::date`,
      ),
    ).toBe(1);
    // No line is in two statements of a kind.
    expect(
      await count(
        db,
        sql`select count(*)::int as n from (select 1 from settlement_lines group by period_kind, source, source_id having count(*) > 1) d`,
      ),
    ).toBe(0);
  });

  it('bad input, a period not begun, roles and another operator change nothing', async () => {
    const someStatement = (await as(app, analyst, { method: 'GET', url: `/api/Operator/${A}/Statements` })).json<
      Statement[]
    >()[0];
    const before = await tableChecksums(db);
    for (const body of [
      {},
      { Period: 'week', Start: '2026-01-01' },
      { Period: 'day', Start: '2026-1-1' },
      { Period: 'day', Start: '2026-02-30' },
      { Period: 'month', Start: '2026-13' },
      { Period: 'month', Start: '2026-01-01' },
      { Period: 'day', Start: "2026-01-01'; drop table settlement_lines; --" },
      { Period: 'day', Start: 20260101 },
    ])
      expectRefused(await issue(manager, body), 400);
    expectRefused(await issue(manager, { Period: 'day', Start: '2999-01-01' }), 409, 'Start', M.notStarted);
    expect((await issue(analyst, { Period: 'day', Start: '2020-01-01' })).statusCode).toBe(403);
    expect((await issue(ownerB, { Period: 'day', Start: '2020-01-01' }, A)).statusCode).toBe(404);
    if (someStatement) {
      expect(
        (await as(app, ownerB, { method: 'GET', url: `/api/Operator/${B}/Statements/${someStatement.StatementId}` }))
          .statusCode,
      ).toBe(404);
      expect(
        (
          await as(app, ownerB, {
            method: 'GET',
            url: `/api/Operator/${B}/Statements/${someStatement.StatementId}/Statement.csv`,
          })
        ).statusCode,
      ).toBe(404);
    }
    expect(await tableChecksums(db)).toEqual(before);
  });
});

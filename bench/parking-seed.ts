import pg from 'pg';
import { tokenSigner } from '@parkit/server/src/auth/tokens.ts';

/**
 * The parking bench's database (parking.ts): members, wallets, vehicles with yesterday's sessions,
 * start quotes, then extend quotes for the running sessions; and the check of the database against
 * the answers afterwards.
 */
const MEMBERS = 4000;
const VEHICLES_EACH = 10;

export interface Prepared {
  quotes: { id: string; member: number }[];
  tokens: Map<number, string>;
}

/**
 * Members, wallets (balance and its ledger entry), vehicles, an always-paid zone and one quote per vehicle.
 * Every vehicle has a plate of its own: a Start takes an advisory lock on its zone and plate until it
 * commits (the citation race rule, migration 0033), so with plates shared by every member the Starts
 * of one round queued on one lock and the bench measured that queue, not a Start.
 */
export async function prepare(url: string, secret: string): Promise<Prepared> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const op = (await db.query<{ id: number }>('select id from operators order by id limit 1')).rows[0]!.id;
    const zone = (
      await db.query<{ id: number }>(
        `insert into zones (operator_id, zone_number, name, address, city, state, zip, lat, lng, kind, rate_cents, max_stay_minutes, paid_days, paid_from_minute, paid_until_minute, capacity)
         values ($1, 'BENCH1', 'Bench zone', '1 Bench St', 'Austin', 'TX', '78701', 30.2672, -97.7431, 'lot', 250, 1440, '{1,2,3,4,5,6,7}', 0, 1440, 100000) returning id`,
        [op],
      )
    ).rows[0]!.id;
    await db.query(
      `insert into members (client_id, user_name, email, phone, password_hash, balance_cents, phone_verified_at)
       select $1, 'bench' || g, 'bench' || g || '@example.test', '7' || lpad(g::text, 9, '0'), 'not-a-hash', 100000, now() from generate_series(1, $2::int) g`,
      [op, MEMBERS],
    );
    await db.query(
      `insert into ledger_entries (member_id, amount_cents, kind, reference, balance_after_cents) select id, 100000, 'adjustment', 'bench', 100000 from members where user_name like 'bench%'`,
    );
    await db.query(
      `insert into vehicles (member_id, make_id, model_id, plate, plate_state, color_id, year)
       select m.id, mo.make_id, mo.id, 'B' || m.id || 'V' || v, 'TX', (select min(id) from vehicle_colors), 2020
       from members m cross join generate_series(1, $1::int) v cross join (select id, make_id from vehicle_models order by id limit 1) mo
       where m.user_name like 'bench%'`,
      [VEHICLES_EACH],
    );
    const quotes = (
      await db.query<{ id: string; member: number }>(
        `insert into parking_quotes (member_id, kind, zone_id, vehicle_id, starts_at, ends_at, duration_minutes, parking_cents, fee_cents, total_cents, expires_at)
         select v.member_id, 'start', $1, v.id, now(), now() + interval '60 minutes', 60, 250, 35, 285, now() + interval '1 hour'
         from vehicles v join members m on m.id = v.member_id where m.user_name like 'bench%'
         returning id, member_id as member`,
        [zone],
      )
    ).rows;
    // A database in use: every vehicle parked before (an ended session yesterday), and the
    // planner's statistics of it, as autovacuum keeps them (this machine runs PostgreSQL without
    // autovacuum). On empty tables the server's connections would plan Start once for no sessions at all.
    // In statements of 1,000 vehicles: each row's trigger takes an advisory lock (the citation race
    // rule) until its statement commits, and a lock table holds a few thousand.
    const vehicleIds = (
      await db.query<{ id: number }>(
        `select v.id from vehicles v join members m on m.id = v.member_id where m.user_name like 'bench%' order by v.id`,
      )
    ).rows.map((r) => r.id);
    for (let i = 0; i < vehicleIds.length; i += 1000)
      await db.query(
        `insert into parking_sessions (member_id, operator_id, zone_id, vehicle_id, vehicle_make, vehicle_model, plate, plate_state,
           started_at, ends_at, ended_at, duration_minutes, initial_minutes, rate_cents, parking_cents, fee_cents, paid_via, status, updated_at)
         select v.member_id, $2, $1, v.id, 'Make', 'Model', v.plate, v.plate_state, now() - interval '25 hours', now() - interval '24 hours',
           now() - interval '24 hours', 60, 60, 250, 250, 35, 'Wallet', 'ended', now() - interval '24 hours'
         from vehicles v where v.id = any($3::int[])`,
        [zone, op, vehicleIds.slice(i, i + 1000)],
      );
    await db.query('analyze');
    // Interleave: quote i belongs to member i mod MEMBERS.
    const byMember = new Map<number, string[]>();
    for (const q of quotes) byMember.set(q.member, [...(byMember.get(q.member) ?? []), q.id]);
    const members = [...byMember.keys()];
    const ordered: { id: string; member: number }[] = [];
    for (let round = 0; round < VEHICLES_EACH; round++)
      for (const m of members) ordered.push({ id: byMember.get(m)![round]!, member: m });
    const signer = tokenSigner(secret);
    const tokens = new Map<number, string>();
    for (const m of members)
      tokens.set(
        m,
        await signer.sign({ memberId: m, amr: 'pwd', authTime: Math.floor(Date.now() / 1000), sessionVersion: 0 }),
      );
    return { quotes: ordered, tokens };
  } finally {
    await db.end();
  }
}

const EXTEND_ROUNDS = 8;

/**
 * Extend quotes for every running session: EXTEND_ROUNDS of 15 minutes each (0.63), the k-th
 * starting where the session ends after k - 1 of them, ordered round by round.
 */
export async function prepareExtends(url: string): Promise<{ id: string; member: number }[]> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    const rows = (
      await db.query<{ id: string; member: number; session: number; starts: Date }>(
        `insert into parking_quotes (member_id, kind, zone_id, vehicle_id, session_id, starts_at, ends_at, duration_minutes, parking_cents, fee_cents, total_cents, expires_at)
         select s.member_id, 'extend', s.zone_id, s.vehicle_id, s.id, s.ends_at + (k - 1) * interval '15 minutes',
                s.ends_at + k * interval '15 minutes', 15, 63, 0, 63, now() + interval '1 hour'
         from parking_sessions s cross join generate_series(1, $1::int) k
         where s.status = 'active' and s.ends_at > now()
         returning id, member_id as member, session_id as session, starts_at as starts`,
        [EXTEND_ROUNDS],
      )
    ).rows;
    rows.sort((a, b) => a.session - b.session || a.starts.getTime() - b.starts.getTime());
    const sessions = rows.length / EXTEND_ROUNDS;
    const ordered: { id: string; member: number }[] = [];
    for (let round = 0; round < EXTEND_ROUNDS; round++)
      for (let i = 0; i < sessions; i++) ordered.push(rows[i * EXTEND_ROUNDS + round]!);
    return ordered;
  } finally {
    await db.end();
  }
}

/** The sessions of this run, the wallets whose ledger differs from the balance, the Extends paid and the Stops refunded. */
export async function check(
  url: string,
): Promise<{ sessions: number; walletsOff: number; extends: number; stops: number }> {
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  try {
    // Today's: not the ended sessions of yesterday that prepare() wrote.
    const sessions = Number(
      (
        await db.query<{ n: string }>(
          `select count(*) as n from parking_sessions where started_at > now() - interval '12 hours'`,
        )
      ).rows[0]!.n,
    );
    const off = Number(
      (
        await db.query<{ n: string }>(
          `select count(*) as n from members m where m.user_name like 'bench%' and m.balance_cents <> coalesce((select sum(amount_cents) from ledger_entries l where l.member_id = m.id), 0)`,
        )
      ).rows[0]!.n,
    );
    const extended = Number(
      (
        await db.query<{ n: string }>(
          `select count(*) as n from ledger_entries where reference like 'session:%:extend'`,
        )
      ).rows[0]!.n,
    );
    const stops = Number(
      (await db.query<{ n: string }>(`select count(*) as n from ledger_entries where reference like 'session:%:stop'`))
        .rows[0]!.n,
    );
    return { sessions, walletsOff: off, extends: extended, stops };
  } finally {
    await db.end();
  }
}

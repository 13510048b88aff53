import { asc, eq } from 'drizzle-orm';
import type { Operator as OperatorView } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import { members, operators } from '../db/schema/index.ts';

export type OperatorRecord = typeof operators.$inferSelect;

export async function operatorById(db: Executor, id: number): Promise<OperatorRecord | null> {
  const [o] = await db.select().from(operators).where(eq(operators.id, id)).limit(1);
  return o ?? null;
}

/** The operator a member parks with (the spec's client_id): whose zones the member sees. */
export async function operatorOfMember(db: Executor, memberId: number): Promise<OperatorRecord | null> {
  const [row] = await db
    .select({ operator: operators })
    .from(members)
    .innerJoin(operators, eq(operators.id, members.clientId))
    .where(eq(members.id, memberId))
    .limit(1);
  return row?.operator ?? null;
}

export function toOperatorView(o: OperatorRecord): OperatorView {
  return {
    ClientId: o.id,
    Name: o.name,
    City: o.city,
    State: o.state,
    Latitude: o.lat,
    Longitude: o.lng,
    Timezone: o.timezone,
  };
}

/** The operator made on first start when there is none (the demo city). */
export const FIRST_OPERATOR = {
  name: 'Austin Parking (demo)',
  city: 'Austin',
  state: 'TX',
  lat: 30.2672,
  lng: -97.7431,
  timezone: 'America/Chicago',
} as const;

/** The operator new members park with: the first one, made on first start if there is none. */
export async function defaultOperatorId(db: Executor): Promise<number> {
  const [first] = await db.select({ id: operators.id }).from(operators).orderBy(asc(operators.id)).limit(1);
  if (first) return first.id;
  const [made] = await db.insert(operators).values(FIRST_OPERATOR).returning({ id: operators.id });
  return made!.id;
}

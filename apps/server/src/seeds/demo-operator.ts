import type { Db } from '../db/client.ts';
import { findByLogin } from '../members/index.ts';
import { makeOwner } from '../operators/index.ts';

/** The demo operator's owner, printed at start beside the demo driver. Local data only. */
export const DEMO_OPERATOR_OWNER = { UserName: 'operator', Password: 'parkit-operator' } as const;

/** First start only: the owner of the demo operator (the console at /operator). Idempotent. */
export async function seedDemoOperatorOwner(db: Db, operatorId: number): Promise<boolean> {
  if (await findByLogin(db, DEMO_OPERATOR_OWNER.UserName)) return false;
  await makeOwner(db, operatorId, DEMO_OPERATOR_OWNER.UserName, DEMO_OPERATOR_OWNER.Password);
  return true;
}

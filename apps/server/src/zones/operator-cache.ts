import type { Executor } from '../db/client.ts';
import { defaultOperatorId, operatorById, operatorOfMember, type OperatorRecord } from './operator-repository.ts';

const MAX_MEMBERS = 100_000;

declare module 'fastify' {
  interface FastifyInstance {
    operators: OperatorCache;
  }
}

/**
 * Operators in memory (the member's operator was read on every zones call). An operator
 * row is never changed once made (the app and its scripts only insert them) and a member's
 * client_id never changes, so neither goes stale: each is read once per process. One cache per app
 * instance (its own database).
 */
export class OperatorCache {
  private readonly byId = new Map<number, OperatorRecord>();
  private readonly ofMemberId = new Map<number, number>();
  private defaultId: number | null = null;

  /** The member's operator (the spec's client_id); null when the member does not exist. */
  async ofMember(db: Executor, memberId: number): Promise<OperatorRecord | null> {
    const known = this.ofMemberId.get(memberId);
    const cached = known === undefined ? undefined : this.byId.get(known);
    if (cached) return cached;
    const operator = await operatorOfMember(db, memberId);
    if (operator) {
      if (this.ofMemberId.size >= MAX_MEMBERS) this.ofMemberId.clear();
      this.ofMemberId.set(memberId, operator.id);
      this.byId.set(operator.id, operator);
    }
    return operator;
  }

  /** An operator by id (null: none). */
  async byOperatorId(db: Executor, id: number): Promise<OperatorRecord | null> {
    const cached = this.byId.get(id);
    if (cached) return cached;
    const operator = await operatorById(db, id);
    if (operator) this.byId.set(id, operator);
    return operator;
  }

  /** The operator guests see: the first one. */
  async defaultOperator(db: Executor): Promise<OperatorRecord | null> {
    this.defaultId ??= await defaultOperatorId(db);
    const cached = this.byId.get(this.defaultId);
    if (cached) return cached;
    const operator = await operatorById(db, this.defaultId);
    if (operator) this.byId.set(operator.id, operator);
    return operator;
  }
}

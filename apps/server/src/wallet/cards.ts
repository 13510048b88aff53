import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { CardSummary } from '@parkit/contract';
import type { Executor, Tx } from '../db/client.ts';
import { paymentMethods, walletSettings } from '../db/schema/index.ts';
import { HttpError } from '../lib/http-error.ts';
import type { SavedCard } from './providers/types.ts';

export type PaymentMethod = typeof paymentMethods.$inferSelect;
export const MAX_CARDS = 10;

export function toCardSummary(c: PaymentMethod): CardSummary {
  return {
    PaymentMethodId: c.id,
    Provider: c.provider === 'stripe' ? 'stripe' : 'sandbox',
    Brand: c.brand,
    Last4: c.last4,
    ExpMonth: c.expMonth,
    ExpYear: c.expYear,
    IsDefault: c.isDefault,
  };
}

export async function listCards(db: Executor, memberId: number): Promise<PaymentMethod[]> {
  return db
    .select()
    .from(paymentMethods)
    .where(eq(paymentMethods.memberId, memberId))
    .orderBy(desc(paymentMethods.isDefault), asc(paymentMethods.id));
}

/** The wallet settings row, created on first use. */
export async function ensureSettings(tx: Executor, memberId: number) {
  await tx.insert(walletSettings).values({ memberId }).onConflictDoNothing();
  const [s] = await tx.select().from(walletSettings).where(eq(walletSettings.memberId, memberId));
  if (!s) throw new Error('wallet settings missing');
  return s;
}

export async function insertCard(
  tx: Tx,
  memberId: number,
  provider: string,
  card: SavedCard,
  makeDefault: boolean,
): Promise<PaymentMethod> {
  const [count] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(paymentMethods)
    .where(eq(paymentMethods.memberId, memberId));
  const hasDefault =
    (
      await tx
        .select({ id: paymentMethods.id })
        .from(paymentMethods)
        .where(and(eq(paymentMethods.memberId, memberId), eq(paymentMethods.isDefault, true)))
    ).length > 0;
  if (Number(count?.n ?? 0) >= MAX_CARDS) throw new HttpError(409, `At most ${MAX_CARDS} cards`);
  const isDefault = makeDefault || !hasDefault;
  if (isDefault && hasDefault)
    await tx
      .update(paymentMethods)
      .set({ isDefault: false })
      .where(and(eq(paymentMethods.memberId, memberId), eq(paymentMethods.isDefault, true)));
  const [row] = await tx
    .insert(paymentMethods)
    .values({
      memberId,
      provider,
      providerRef: card.providerRef,
      brand: card.brand.slice(0, 40),
      last4: card.last4,
      expMonth: card.expMonth,
      expYear: card.expYear,
      isDefault,
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw new HttpError(409, 'This card is already saved');
  return row;
}

export async function setDefault(tx: Tx, memberId: number, id: number): Promise<PaymentMethod> {
  const [own] = await tx
    .select()
    .from(paymentMethods)
    .where(and(eq(paymentMethods.id, id), eq(paymentMethods.memberId, memberId)));
  if (!own) throw new HttpError(404, 'Not found');
  await tx
    .update(paymentMethods)
    .set({ isDefault: false })
    .where(and(eq(paymentMethods.memberId, memberId), eq(paymentMethods.isDefault, true)));
  const [row] = await tx.update(paymentMethods).set({ isDefault: true }).where(eq(paymentMethods.id, id)).returning();
  return row ?? own;
}

/** Deletes one of the member's cards; deleting the default switches auto-reload off. */
export async function deleteCard(
  tx: Tx,
  memberId: number,
  id: number,
): Promise<{ card: PaymentMethod; autoReloadTurnedOff: boolean }> {
  const [card] = await tx
    .delete(paymentMethods)
    .where(and(eq(paymentMethods.id, id), eq(paymentMethods.memberId, memberId)))
    .returning();
  if (!card) throw new HttpError(404, 'Not found');
  let autoReloadTurnedOff = false;
  if (card.isDefault) {
    const off = await tx
      .update(walletSettings)
      .set({ autoReload: false, reloadDueAt: null, updatedAt: sql`now()` })
      .where(and(eq(walletSettings.memberId, memberId), eq(walletSettings.autoReload, true)))
      .returning({ m: walletSettings.memberId });
    autoReloadTurnedOff = off.length > 0;
  }
  return { card, autoReloadTurnedOff };
}

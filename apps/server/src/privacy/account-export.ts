import { asc, eq } from 'drizzle-orm';
import { centsToAmount, type AccountExport, type CallBackStatus } from '@parkit/contract';
import type { Executor } from '../db/client.ts';
import {
  ledgerEntries,
  members,
  parkingSessions,
  paymentMethods,
  plans,
  pushSubscriptions,
  subscriptions,
  supportAttachments,
  supportCallBacks,
  supportMessages,
  vehicleColors,
  vehicleMakes,
  vehicleModels,
  vehicles,
  zones,
} from '../db/schema/index.ts';
import { getReminderSettings, toUserData } from '../members/index.ts';

const iso = (d: Date | string) => new Date(d).toISOString();
const isoOrNull = (d: Date | string | null) => (d === null ? null : iso(d));

/**
 * Everything ParkIt holds about a member, for the one-file download (docs/data.md#leaving): the
 * profile, vehicles, cards (brand, last 4 and expiry: the provider's reference is not theirs to
 * use), plans, every parking session, every ledger entry, the support chat, the call-backs, the
 * reminder settings and the browsers subscribed to push reminders (their endpoints: the keys are
 * the browser's secret).
 * Null when the member does not exist.
 */
export async function exportAccount(db: Executor, memberId: number): Promise<AccountExport | null> {
  const [m] = await db.select().from(members).where(eq(members.id, memberId));
  if (!m) return null;
  const [vehicleRows, cardRows, planRows, sessionRows, ledgerRows, messageRows, callBackRows] = await Promise.all([
    db
      .select({
        VehicleId: vehicles.id,
        Make: vehicleMakes.name,
        Model: vehicleModels.name,
        Color: vehicleColors.name,
        Year: vehicles.year,
        Plate: vehicles.plate,
        PlateState: vehicles.plateState,
        createdAt: vehicles.createdAt,
      })
      .from(vehicles)
      .innerJoin(vehicleMakes, eq(vehicleMakes.id, vehicles.makeId))
      .innerJoin(vehicleModels, eq(vehicleModels.id, vehicles.modelId))
      .innerJoin(vehicleColors, eq(vehicleColors.id, vehicles.colorId))
      .where(eq(vehicles.memberId, memberId))
      .orderBy(asc(vehicles.id)),
    db.select().from(paymentMethods).where(eq(paymentMethods.memberId, memberId)).orderBy(asc(paymentMethods.id)),
    db
      .select({
        Plan: plans.name,
        Status: subscriptions.status,
        start: subscriptions.currentPeriodStart,
        end: subscriptions.currentPeriodEnd,
        endedAt: subscriptions.endedAt,
      })
      .from(subscriptions)
      .innerJoin(plans, eq(plans.id, subscriptions.planId))
      .where(eq(subscriptions.memberId, memberId))
      .orderBy(asc(subscriptions.id)),
    db
      .select({ s: parkingSessions, zoneNumber: zones.zoneNumber, zoneName: zones.name })
      .from(parkingSessions)
      .innerJoin(zones, eq(zones.id, parkingSessions.zoneId))
      .where(eq(parkingSessions.memberId, memberId))
      .orderBy(asc(parkingSessions.startedAt), asc(parkingSessions.id)),
    db.select().from(ledgerEntries).where(eq(ledgerEntries.memberId, memberId)).orderBy(asc(ledgerEntries.id)),
    db
      .select({
        sender: supportMessages.sender,
        text: supportMessages.text,
        fileName: supportAttachments.fileName,
        createdAt: supportMessages.createdAt,
      })
      .from(supportMessages)
      .leftJoin(supportAttachments, eq(supportAttachments.id, supportMessages.attachmentId))
      .where(eq(supportMessages.memberId, memberId))
      .orderBy(asc(supportMessages.id)),
    db.select().from(supportCallBacks).where(eq(supportCallBacks.memberId, memberId)).orderBy(asc(supportCallBacks.id)),
  ]);
  const [reminders, pushRows] = await Promise.all([
    getReminderSettings(db, memberId),
    db
      .select({
        Endpoint: pushSubscriptions.endpoint,
        Language: pushSubscriptions.language,
        createdAt: pushSubscriptions.createdAt,
      })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.memberId, memberId))
      .orderBy(asc(pushSubscriptions.id)),
  ]);
  return {
    ExportedAt: new Date().toISOString(),
    Profile: { ...toUserData(m), Balance: centsToAmount(m.balanceCents), CreatedAt: iso(m.createdAt) },
    Vehicles: vehicleRows.map(({ createdAt, ...v }) => ({ ...v, CreatedAt: iso(createdAt) })),
    Cards: cardRows.map((c) => ({
      Brand: c.brand,
      Last4: c.last4,
      ExpMonth: c.expMonth,
      ExpYear: c.expYear,
      IsDefault: c.isDefault,
      AddedAt: iso(c.createdAt),
    })),
    Subscriptions: planRows.map((p) => ({
      Plan: p.Plan,
      Status: p.Status,
      PeriodStart: iso(p.start),
      PeriodEnd: iso(p.end),
      EndedAt: isoOrNull(p.endedAt),
    })),
    ParkingSessions: sessionRows.map(({ s, zoneNumber, zoneName }) => ({
      SessionId: s.id,
      ZoneNumber: zoneNumber,
      ZoneName: zoneName,
      Plate: s.plate,
      PlateState: s.plateState,
      Vehicle: `${s.vehicleMake} ${s.vehicleModel}`.trim(),
      StartedAt: iso(s.startedAt),
      EndsAt: iso(s.endsAt),
      EndedAt: isoOrNull(s.endedAt),
      DurationMinutes: s.durationMinutes,
      AmountPaid: centsToAmount(s.parkingCents + s.feeCents - s.refundedCents),
      Refunded: centsToAmount(s.refundedCents),
      PaidVia: s.paidVia,
      Status: s.status,
    })),
    Ledger: ledgerRows.map((r) => ({
      TransactionId: r.id,
      Kind: r.kind,
      Amount: centsToAmount(r.amountCents),
      BalanceAfter: centsToAmount(r.balanceAfterCents),
      Reference: r.reference,
      CreatedAt: iso(r.createdAt),
    })),
    SupportChat: messageRows.map((r) => ({
      From: r.sender === 'user' ? ('user' as const) : ('support' as const),
      Text: r.text,
      AttachmentName: r.fileName,
      CreatedAt: iso(r.createdAt),
    })),
    CallBacks: callBackRows.map((c) => ({
      CallBackId: c.id,
      Phone: c.phone,
      Date: c.slotDate,
      Time: c.slotTime,
      ScheduledAt: iso(c.scheduledAt),
      Status: c.status as CallBackStatus,
      CreatedAt: iso(c.createdAt),
    })),
    Reminders: reminders,
    PushSubscriptions: pushRows.map(({ createdAt, ...p }) => ({ ...p, SubscribedAt: iso(createdAt) })),
  };
}

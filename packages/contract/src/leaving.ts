import { z } from 'zod';
import { MESSAGES } from './messages.ts';
import { UserData } from './account.ts';
import { ReminderSettings } from './push.ts';
import { CallBack } from './support.ts';
import { Transaction } from './wallet.ts';

/** Leaving cleanly (docs/data.md#leaving): the download of a member's data and the deletion of the account. */
export const LEAVING_MESSAGES = {
  passwordWrong: 'This password is not correct.',
  sessionRunning: 'You have a parking session running. Stop it, or wait for it to end, then delete your account.',
  chargePending: 'A payment to your wallet is still being processed. Please try again in a few minutes.',
  staff: 'You work for a parking operator on ParkIt. Ask an owner to remove you from its staff first.',
  deleted: 'Your account has been deleted.',
} as const;

/** POST /api/Account/Delete: the member's password again, as the confirmation. */
export const DeleteAccountRequest = z.object({
  Password: z.string({ error: MESSAGES.passwordRequired }).min(1, MESSAGES.passwordRequired).max(128),
});
export type DeleteAccountRequest = z.input<typeof DeleteAccountRequest>;

export const DeleteAccountResponse = z.object({
  message: z.string(),
  /** What the wallet held and goes back to the card(s) it was paid with. */
  RefundedAmount: z.number(),
  /** Credit the operator gave (never paid by a card), which ends with the account. */
  ForfeitedCredit: z.number(),
});
export type DeleteAccountResponse = z.infer<typeof DeleteAccountResponse>;

const ExportVehicle = z.object({
  VehicleId: z.number().int(),
  Make: z.string(),
  Model: z.string(),
  Color: z.string(),
  Year: z.number().int(),
  Plate: z.string(),
  PlateState: z.string(),
  CreatedAt: z.string(),
});

const ExportSession = z.object({
  SessionId: z.number().int(),
  ZoneNumber: z.string(),
  ZoneName: z.string(),
  Plate: z.string(),
  PlateState: z.string(),
  Vehicle: z.string(),
  StartedAt: z.string(),
  EndsAt: z.string(),
  EndedAt: z.string().nullable(),
  DurationMinutes: z.number().int(),
  AmountPaid: z.number(),
  Refunded: z.number(),
  PaidVia: z.string(),
  Status: z.string(),
});

const ExportCard = z.object({
  Brand: z.string(),
  Last4: z.string(),
  ExpMonth: z.number().int(),
  ExpYear: z.number().int(),
  IsDefault: z.boolean(),
  AddedAt: z.string(),
});

const ExportMessage = z.object({
  From: z.enum(['support', 'user']),
  Text: z.string(),
  AttachmentName: z.string().nullable(),
  CreatedAt: z.string(),
});

const ExportSubscription = z.object({
  Plan: z.string(),
  Status: z.string(),
  PeriodStart: z.string(),
  PeriodEnd: z.string(),
  EndedAt: z.string().nullable(),
});

/** A browser subscribed to push reminders: where they go, never its two keys (they are the browser's secret). */
const ExportPushSubscription = z.object({
  Endpoint: z.string(),
  Language: z.string(),
  SubscribedAt: z.string(),
});

/** GET /api/Account/Export: everything ParkIt holds about the member, as one JSON file. */
export const AccountExport = z.object({
  ExportedAt: z.string(),
  Profile: UserData.extend({ Balance: z.number(), CreatedAt: z.string() }),
  Vehicles: z.array(ExportVehicle),
  Cards: z.array(ExportCard),
  Subscriptions: z.array(ExportSubscription),
  ParkingSessions: z.array(ExportSession),
  Ledger: z.array(Transaction),
  SupportChat: z.array(ExportMessage),
  CallBacks: z.array(CallBack),
  /** When the reminder before a session's end comes and on which channels (the defaults until saved). */
  Reminders: ReminderSettings,
  PushSubscriptions: z.array(ExportPushSubscription),
});
export type AccountExport = z.infer<typeof AccountExport>;

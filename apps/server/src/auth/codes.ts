import { MESSAGES } from '@parkit/contract';
import { tooManyRequests } from '../lib/http-error.ts';
import type { Executor } from '../db/client.ts';
import * as otp from './otp-repository.ts';
import * as outbox from '../infra/outbox-repository.ts';

/** Sends a sign-in code to a phone, or pretends to when no account has it (never reveal which). */
export async function sendCode(db: Executor, phone: string, purpose: otp.OtpPurpose, deliver: boolean): Promise<void> {
  const issued = await otp.issue(db, phone, purpose);
  if ('wait' in issued) throw tooManyRequests(MESSAGES.codeTooSoon, issued.wait);
  if (deliver) {
    const what = purpose === 'reset' ? 'password reset' : 'sign-in';
    await outbox.enqueue(db, 'sms', phone, `Your ParkIt ${what} code is ${issued.code}. It expires in 10 minutes.`);
  }
}

/** '5125550123' → '******0123': enough for the driver to recognise, no more. */
export const maskPhone = (phone: string) => phone.slice(-4).padStart(phone.length, '*');

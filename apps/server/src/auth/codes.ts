import { MESSAGES } from '@parkit/contract';
import { tooManyRequests } from '../lib/http-error.ts';
import type { Executor } from '../db/client.ts';
import * as otp from './otp-repository.ts';
import * as outbox from '../infra/outbox-repository.ts';

/**
 * Sends a sign-in code to a phone, or pretends to when no account has it (never reveal which).
 * Registration sends a sign-in code too (it verifies the phone and signs in), worded for what the
 * driver is doing.
 */
export async function sendCode(
  db: Executor,
  phone: string,
  purpose: otp.OtpPurpose,
  deliver: boolean,
  occasion: 'sign-in' | 'registration' = 'sign-in',
): Promise<void> {
  const issued = await otp.issue(db, phone, purpose);
  if ('wait' in issued) throw tooManyRequests(MESSAGES.codeTooSoon, issued.wait);
  if (!deliver) return;
  const text =
    occasion === 'registration'
      ? `Your ParkIt registration code is ${issued.code}. Enter it to finish signing up. It expires in 10 minutes.`
      : `Your ParkIt ${purpose === 'reset' ? 'password reset' : 'sign-in'} code is ${issued.code}. It expires in 10 minutes.`;
  await outbox.enqueue(db, 'sms', phone, text);
}

/** '5125550123' → '******0123': enough for the driver to recognise, no more. */
export const maskPhone = (phone: string) => phone.slice(-4).padStart(phone.length, '*');

import { MESSAGES } from '@parkit/contract';
import { tooManyRequests } from '../lib/http-error.ts';
import type { Executor } from '../db/client.ts';
import type { Language, Localised } from '../lib/language.ts';
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
  language: Language = 'en',
): Promise<void> {
  const issued = await otp.issue(db, phone, purpose, language);
  if ('wait' in issued) throw tooManyRequests(MESSAGES.codeTooSoon, issued.wait);
  if (!deliver) return;
  await outbox.enqueue(db, 'sms', phone, codeSms(issued.code, purpose, occasion)[language]);
}

/** The code's SMS in each language (English: docs/product.md#sign-in, letter for letter). */
export function codeSms(code: string, purpose: otp.OtpPurpose, occasion: 'sign-in' | 'registration'): Localised {
  if (occasion === 'registration')
    return {
      en: `Your ParkIt registration code is ${code}. Enter it to finish signing up. It expires in 10 minutes.`,
      hi: `आपका ParkIt पंजीकरण कोड ${code} है। साइन अप पूरा करने के लिए इसे दर्ज करें। यह 10 मिनट में समाप्त हो जाएगा।`,
      es: `Su código de registro de ParkIt es ${code}. Ingréselo para terminar de registrarse. Vence en 10 minutos.`,
    };
  if (purpose === 'reset')
    return {
      en: `Your ParkIt password reset code is ${code}. It expires in 10 minutes.`,
      hi: `आपका ParkIt पासवर्ड रीसेट कोड ${code} है। यह 10 मिनट में समाप्त हो जाएगा।`,
      es: `Su código de ParkIt para restablecer la contraseña es ${code}. Vence en 10 minutos.`,
    };
  return {
    en: `Your ParkIt sign-in code is ${code}. It expires in 10 minutes.`,
    hi: `आपका ParkIt साइन-इन कोड ${code} है। यह 10 मिनट में समाप्त हो जाएगा।`,
    es: `Su código de inicio de sesión de ParkIt es ${code}. Vence en 10 minutos.`,
  };
}

/** '5125550123' → '******0123': enough for the driver to recognise, no more. */
export const maskPhone = (phone: string) => phone.slice(-4).padStart(phone.length, '*');

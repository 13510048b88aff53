// The SMS builders' three languages: English as it was (letter for letter), Hindi and Spanish
// written out, the counts by each language's plural rules, and a card's refusal translated.
import { describe, expect, it } from 'vitest';
import { WALLET_MESSAGES } from '@parkit/contract';
import { decisionSms, refusedRefundSms } from '../src/citations/citation-notices.ts';
import { plural } from '../src/lib/language.ts';
import * as parking from '../src/parking/sms-texts.ts';
import { planEndedSms, reloadDeclinedSms, reloadedSms } from '../src/wallet/sms-texts.ts';

const where = { plate: 'ABC 123', zone_number: '5001' };
const at = (lang: string) => ({ en: '08:05 PM', hi: '08:05 pm', es: '08:05 p.m.' })[lang] ?? '';

describe('plurals', () => {
  it('follow each language’s rules', () => {
    const forms = { one: '# minute', other: '# minutes' };
    expect([0, 1, 2].map((n) => plural('en', n, forms))).toEqual(['0 minutes', '1 minute', '2 minutes']);
    expect([0, 1, 2].map((n) => plural('es', n, { one: '# minuto', other: '# minutos' }))).toEqual([
      '0 minutos',
      '1 minuto',
      '2 minutos',
    ]);
    // Hindi counts 0 and 1 as "one".
    expect([0, 1, 2].map((n) => plural('hi', n, { one: 'one', other: 'other' }))).toEqual(['one', 'one', 'other']);
  });
});

describe('parking', () => {
  it('Auto Extend’s notices', () => {
    expect(parking.autoExtendedSms(where, 30, '$1.25', at)).toEqual({
      en: 'ParkIt: Auto Extend added 30 minutes for ABC 123 in zone 5001 ($1.25); it now ends at 08:05 PM.',
      hi: 'ParkIt: ऑटो एक्सटेंड ने ज़ोन 5001 में ABC 123 के लिए 30 मिनट जोड़े ($1.25); अब यह 08:05 pm पर खत्म होगी।',
      es: 'ParkIt: la extensión automática agregó 30 minutos para ABC 123 en la zona 5001 ($1.25); ahora termina a las 08:05 p.m.',
    });
    expect(parking.autoExtendLowBalanceSms(where).en).toBe(
      'ParkIt: Auto Extend could not extend ABC 123 in zone 5001: your balance is too low.',
    );
    expect(parking.autoExtendMaxStaySms(where).es).toBe(
      'ParkIt: la extensión automática no pudo extender ABC 123 en la zona 5001: se alcanzó la estadía máxima.',
    );
    expect(parking.autoExtendMaxPaymentSms(where).hi).toContain('अधिकतम भुगतान राशि');
  });

  it('a reminder a minute before the end says "1 minute" in each language', () => {
    const one = parking.reminderSms(where, at, 1);
    expect(one.en).toBe('ParkIt: your parking for ABC 123 in zone 5001 ends at 08:05 PM (in 1 minute).');
    expect(one.es).toContain('(en 1 minuto)');
    expect(one.hi).toContain('(1 मिनट में)');
  });

  it('a guest’s extension', () => {
    expect(parking.guestExtendedSms(where, '$2.50', 60)).toEqual({
      en: 'ParkIt: you paid $2.50 to extend ABC 123 in zone 5001 by 60 minutes.',
      hi: 'ParkIt: आपने ज़ोन 5001 में ABC 123 की पार्किंग 60 मिनट बढ़ाने के लिए $2.50 चुकाए।',
      es: 'ParkIt: pagó $2.50 para extender ABC 123 en la zona 5001 por 60 minutos.',
    });
  });

  it('clock: the zone’s time in each language', () => {
    const instant = '2026-03-01T20:05:00Z';
    expect(parking.clock('en', instant, 'America/Chicago')).toBe('02:05 PM');
    expect(parking.clock('es', instant, 'America/Chicago')).toMatch(/^02:05\sp\.\s?m\.$/);
    expect(parking.clock('hi', instant, 'America/Chicago')).toBe('02:05 pm');
  });
});

describe('citations', () => {
  it('a contest’s decision', () => {
    const f = { citationId: 7, plate: 'ABC 123', plateState: 'TX', fineCents: 2500, refundCents: 0 };
    expect(decisionSms({ ...f, decision: 'upheld' })).toEqual({
      en: 'ParkIt: your contest of citation 7 for ABC 123 was refused: the fine of 25.00 stands.',
      hi: 'ParkIt: ABC 123 के चालान 7 पर आपकी आपत्ति अस्वीकार हुई: 25.00 का जुर्माना बना रहेगा।',
      es: 'ParkIt: su impugnación de la multa 7 de ABC 123 fue rechazada: la multa de 25.00 se mantiene.',
    });
    const cancelled = decisionSms({ ...f, decision: 'cancelled', refundCents: 2500 });
    expect(cancelled.en).toBe(
      'ParkIt: your contest of citation 7 for ABC 123 was accepted: the citation is cancelled and 25.00 is back in your wallet.',
    );
    expect(cancelled.es).toContain('y 25.00 volvió a su billetera');
    expect(decisionSms({ ...f, decision: 'reduced', fineCents: 1000 }).hi).toContain('जुर्माना अब 10.00 है');
  });

  it('a card payment refunded to the card, and the card’s refusal', () => {
    const f = { citationId: 7, plate: 'ABC 123', plateState: 'TX', fineCents: 2500, refundCents: 2500 };
    expect(decisionSms({ ...f, decision: 'cancelled', card: { last4: '4242' } })).toEqual({
      en: 'ParkIt: your contest of citation 7 for ABC 123 was accepted: the citation is cancelled and 25.00 goes back to your card ending 4242.',
      hi: 'ParkIt: ABC 123 के चालान 7 पर आपकी आपत्ति स्वीकार हुई: चालान रद्द है और 25.00 आपके 4242 पर खत्म होने वाले कार्ड में वापस भेजे जा रहे हैं।',
      es: 'ParkIt: su impugnación de la multa 7 de ABC 123 fue aceptada: la multa está cancelada y 25.00 se devuelve a su tarjeta terminada en 4242.',
    });
    expect(decisionSms({ ...f, decision: 'right-found', card: { last4: null } }).en).toContain(
      'and 25.00 goes back to the card you paid with.',
    );
    const refused = refusedRefundSms({ memberId: 1, citationId: 7, plate: 'ABC 123', last4: '4242', cents: 2500 });
    expect(refused.en).toBe(
      'ParkIt: your card ending 4242 refused the refund of 25.00 for citation 7 (ABC 123); the 25.00 is in your ParkIt wallet instead.',
    );
    expect(refused.hi).toContain('वॉलेट');
    expect(refused.es).toContain('rechazó el reembolso de 25.00');
  });
});

describe('wallet', () => {
  it('auto-reload and a plan’s end, with the card’s refusal translated', () => {
    expect(reloadedSms('$25.00', 'visa •••• 4242', '$30.00')).toEqual({
      en: 'ParkIt: auto-reload added $25.00 to your wallet (visa •••• 4242). Balance: $30.00.',
      hi: 'ParkIt: ऑटो-रीलोड ने आपके वॉलेट में $25.00 जोड़े (visa •••• 4242)। बैलेंस: $30.00।',
      es: 'ParkIt: la recarga automática agregó $25.00 a su billetera (visa •••• 4242). Saldo: $30.00.',
    });
    const declined = reloadDeclinedSms(WALLET_MESSAGES.declined);
    expect(declined.en).toBe(`ParkIt: ${WALLET_MESSAGES.reloadDeclined}. ${WALLET_MESSAGES.declined}`);
    expect(declined.es).toBe(
      'ParkIt: La recarga automática se desactivó porque su tarjeta fue rechazada. Su tarjeta fue rechazada.',
    );
    expect(declined.hi).toContain('आपका कार्ड अस्वीकृत हो गया।');
    const ended = planEndedSms('Plus', WALLET_MESSAGES.insufficientCardFunds);
    expect(ended.en).toBe(
      `ParkIt: your Plus plan has ended because the renewal payment failed. ${WALLET_MESSAGES.insufficientCardFunds}`,
    );
    expect(ended.es).toBe(
      'ParkIt: su plan Plus terminó porque falló el pago de renovación. Su tarjeta no tiene fondos suficientes.',
    );
    // A message we do not know (a provider's own words) stays as it is.
    expect(planEndedSms('Plus', 'Something else.').hi).toMatch(/Something else\.$/);
  });
});

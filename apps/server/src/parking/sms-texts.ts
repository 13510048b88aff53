import { LOCALES, plural, type Language, type Localised } from '../lib/language.ts';

/**
 * Parking's SMS in each language (English is the key: the texts as they were, letter for letter).
 * A member's SMS follow their saved language, a guest's the language their phone asked its Quick
 * Park code in (infra/recipient-language.ts). Times are the zone's (its operator's time zone).
 */
interface Where {
  plate: string;
  zone_number: string;
}

/** '08:05 PM' in English (as before); Intl's form of the same in Hindi and Spanish. */
export const clock = (lang: Language, at: Date | string, timeZone: string) =>
  new Intl.DateTimeFormat(LOCALES[lang], { timeZone, hour: '2-digit', minute: '2-digit', hour12: true }).format(
    new Date(at),
  );

const minutes = (lang: Language, n: number) =>
  ({
    en: plural('en', n, { one: '# minute', other: '# minutes' }),
    hi: plural('hi', n, { one: '# मिनट', other: '# मिनट' }),
    es: plural('es', n, { one: '# minuto', other: '# minutos' }),
  })[lang];

/** A sentence's full stop, once ('p.m.' ends with one already). */
const stop = (s: string) => (s.endsWith('.') ? s : `${s}.`);

/** A time in the reader's language (clock). */
type At = (lang: Language) => string;

export function reminderSms(d: Where, endsAt: At, left: number): Localised {
  return {
    en: `ParkIt: your parking for ${d.plate} in zone ${d.zone_number} ends at ${endsAt('en')} (in ${minutes('en', left)}).`,
    hi: `ParkIt: ज़ोन ${d.zone_number} में ${d.plate} की आपकी पार्किंग ${endsAt('hi')} पर खत्म होगी (${minutes('hi', left)} में)।`,
    es: `ParkIt: su estacionamiento de ${d.plate} en la zona ${d.zone_number} termina a las ${endsAt('es')} (en ${minutes('es', left)}).`,
  };
}

export function endedSms(d: Where, endedAt: At): Localised {
  return {
    en: `ParkIt: your parking for ${d.plate} in zone ${d.zone_number} ended at ${endedAt('en')}.`,
    hi: `ParkIt: ज़ोन ${d.zone_number} में ${d.plate} की आपकी पार्किंग ${endedAt('hi')} पर खत्म हो गई।`,
    es: stop(`ParkIt: su estacionamiento de ${d.plate} en la zona ${d.zone_number} terminó a las ${endedAt('es')}`),
  };
}

export function autoExtendMaxStaySms(d: Where): Localised {
  return {
    en: `ParkIt: Auto Extend could not extend ${d.plate} in zone ${d.zone_number}: the maximum stay is reached.`,
    hi: `ParkIt: ऑटो एक्सटेंड ज़ोन ${d.zone_number} में ${d.plate} की पार्किंग नहीं बढ़ा सका: अधिकतम ठहराव पूरा हो गया है।`,
    es: `ParkIt: la extensión automática no pudo extender ${d.plate} en la zona ${d.zone_number}: se alcanzó la estadía máxima.`,
  };
}

export function autoExtendMaxPaymentSms(d: Where): Localised {
  return {
    en: `ParkIt: Auto Extend did not extend ${d.plate} in zone ${d.zone_number}: it would pass your Max Payment Amount.`,
    hi: `ParkIt: ऑटो एक्सटेंड ने ज़ोन ${d.zone_number} में ${d.plate} की पार्किंग नहीं बढ़ाई: यह आपकी अधिकतम भुगतान राशि से अधिक हो जाती।`,
    es: `ParkIt: la extensión automática no extendió ${d.plate} en la zona ${d.zone_number}: superaría su monto máximo de pago.`,
  };
}

export function autoExtendLowBalanceSms(d: Where): Localised {
  return {
    en: `ParkIt: Auto Extend could not extend ${d.plate} in zone ${d.zone_number}: your balance is too low.`,
    hi: `ParkIt: ऑटो एक्सटेंड ज़ोन ${d.zone_number} में ${d.plate} की पार्किंग नहीं बढ़ा सका: आपका बैलेंस बहुत कम है।`,
    es: `ParkIt: la extensión automática no pudo extender ${d.plate} en la zona ${d.zone_number}: su saldo es insuficiente.`,
  };
}

/** `amount` is written ('$2.50'); `endsAt` takes the language (clock). */
export function autoExtendedSms(d: Where, added: number, amount: string, endsAt: At): Localised {
  return {
    en: `ParkIt: Auto Extend added ${minutes('en', added)} for ${d.plate} in zone ${d.zone_number} (${amount}); it now ends at ${endsAt('en')}.`,
    hi: `ParkIt: ऑटो एक्सटेंड ने ज़ोन ${d.zone_number} में ${d.plate} के लिए ${minutes('hi', added)} जोड़े (${amount}); अब यह ${endsAt('hi')} पर खत्म होगी।`,
    es: stop(
      `ParkIt: la extensión automática agregó ${minutes('es', added)} para ${d.plate} en la zona ${d.zone_number} (${amount}); ahora termina a las ${endsAt('es')}`,
    ),
  };
}

/** A guest's receipt: what was paid, and the link to the session. */
export function guestPaidSms(d: Where, amount: string, bought: number, link: string): Localised {
  return {
    en: `ParkIt: you paid ${amount} for ${d.plate} in zone ${d.zone_number}, ${minutes('en', bought)}. Your session: ${link}`,
    hi: `ParkIt: आपने ज़ोन ${d.zone_number} में ${d.plate} के लिए ${minutes('hi', bought)} के ${amount} चुकाए। आपका सत्र: ${link}`,
    es: `ParkIt: pagó ${amount} por ${d.plate} en la zona ${d.zone_number}, ${minutes('es', bought)}. Su sesión: ${link}`,
  };
}

export function guestExtendedSms(d: Where, amount: string, added: number): Localised {
  return {
    en: `ParkIt: you paid ${amount} to extend ${d.plate} in zone ${d.zone_number} by ${minutes('en', added)}.`,
    hi: `ParkIt: आपने ज़ोन ${d.zone_number} में ${d.plate} की पार्किंग ${minutes('hi', added)} बढ़ाने के लिए ${amount} चुकाए।`,
    es: `ParkIt: pagó ${amount} para extender ${d.plate} en la zona ${d.zone_number} por ${minutes('es', added)}.`,
  };
}

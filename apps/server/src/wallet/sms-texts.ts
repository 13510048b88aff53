import { WALLET_MESSAGES } from '@parkit/contract';
import type { Language, Localised } from '../lib/language.ts';

/**
 * The wallet's SMS in each language, written in the member's saved language
 * (infra/recipient-language.ts); English is the key, the texts as they were.
 */

/** A card refusal's message (charges.ts) in the reader's language; one we do not know stays as it is. */
const CARD_MESSAGES: Record<string, Omit<Localised, 'en'>> = {
  [WALLET_MESSAGES.cardNumberInvalid]: {
    hi: 'आपका कार्ड नंबर अमान्य है।',
    es: 'El número de su tarjeta no es válido.',
  },
  [WALLET_MESSAGES.cardNotTest]: {
    hi: 'आपका कार्ड अस्वीकृत हो गया। आपका अनुरोध टेस्ट मोड में था, लेकिन असली कार्ड इस्तेमाल किया गया।',
    es: 'Su tarjeta fue rechazada. Su solicitud estaba en modo de prueba, pero usó una tarjeta que no es de prueba.',
  },
  [WALLET_MESSAGES.expiryInvalid]: {
    hi: 'आपके कार्ड की समाप्ति तिथि अमान्य है।',
    es: 'La fecha de vencimiento de su tarjeta no es válida.',
  },
  [WALLET_MESSAGES.expired]: { hi: 'आपका कार्ड समाप्त हो चुका है।', es: 'Su tarjeta está vencida.' },
  [WALLET_MESSAGES.cvcInvalid]: {
    hi: 'आपके कार्ड का सुरक्षा कोड अमान्य है।',
    es: 'El código de seguridad de su tarjeta no es válido.',
  },
  [WALLET_MESSAGES.declined]: { hi: 'आपका कार्ड अस्वीकृत हो गया।', es: 'Su tarjeta fue rechazada.' },
  [WALLET_MESSAGES.insufficientCardFunds]: {
    hi: 'आपके कार्ड में पर्याप्त राशि नहीं है।',
    es: 'Su tarjeta no tiene fondos suficientes.',
  },
  [WALLET_MESSAGES.providerUnavailable]: {
    hi: 'भुगतान प्रदाता से संपर्क नहीं हो सका। कुछ नहीं लिया गया; कृपया फिर से कोशिश करें।',
    es: 'No se pudo contactar al proveedor de pagos. No se cobró nada; inténtelo de nuevo.',
  },
};

export const cardMessage = (lang: Language, english: string): string =>
  lang === 'en' ? english : (CARD_MESSAGES[english]?.[lang] ?? english);

/** `amount` and `balance` are written ('$20.00'). */
export function reloadedSms(amount: string, card: string, balance: string): Localised {
  return {
    en: `ParkIt: auto-reload added ${amount} to your wallet (${card}). Balance: ${balance}.`,
    hi: `ParkIt: ऑटो-रीलोड ने आपके वॉलेट में ${amount} जोड़े (${card})। बैलेंस: ${balance}।`,
    es: `ParkIt: la recarga automática agregó ${amount} a su billetera (${card}). Saldo: ${balance}.`,
  };
}

export function reloadDeclinedSms(reason: string): Localised {
  return {
    en: `ParkIt: ${WALLET_MESSAGES.reloadDeclined}. ${reason}`,
    hi: `ParkIt: आपका कार्ड अस्वीकृत होने के कारण ऑटो-रीलोड बंद कर दिया गया। ${cardMessage('hi', reason)}`,
    es: `ParkIt: La recarga automática se desactivó porque su tarjeta fue rechazada. ${cardMessage('es', reason)}`,
  };
}

export function planEndedSms(plan: string, reason: string): Localised {
  return {
    en: `ParkIt: your ${plan} plan has ended because the renewal payment failed. ${reason}`,
    hi: `ParkIt: नवीनीकरण भुगतान विफल होने के कारण आपका ${plan} प्लान समाप्त हो गया है। ${cardMessage('hi', reason)}`,
    es: `ParkIt: su plan ${plan} terminó porque falló el pago de renovación. ${cardMessage('es', reason)}`,
  };
}

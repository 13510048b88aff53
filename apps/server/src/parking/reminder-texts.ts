import type { PushMessage } from '@parkit/contract';
import type { Localised } from '../infra/push/push-repository.ts';

/**
 * The push notifications of a session's reminder and end, in each language a browser may have
 * subscribed in (English is the key, as in the web app; docs/product.md#reminders). The SMS are
 * in sms-texts.ts.
 */
export interface SessionFacts {
  id: number;
  plate: string;
  zone_number: string;
  ends_at: Date | string;
  timezone: string;
}

const time = (f: SessionFacts, locale: string) =>
  new Intl.DateTimeFormat(locale, { timeZone: f.timezone, hour: 'numeric', minute: '2-digit', hour12: true }).format(
    new Date(f.ends_at),
  );

const message = (f: SessionFacts, title: string, body: string): string =>
  JSON.stringify({ title, body, url: `/parkdetails?id=${f.id}`, tag: `parking-${f.id}` } satisfies PushMessage);

export function reminderPush(f: SessionFacts, minutesLeft: number): Localised {
  const minutes = minutesLeft === 1 ? '1 minute' : `${minutesLeft} minutes`;
  return {
    en: message(
      f,
      'ParkIt: your parking ends soon',
      `Your parking for ${f.plate} in zone ${f.zone_number} ends at ${time(f, 'en-US')} (in ${minutes}).`,
    ),
    hi: message(
      f,
      'ParkIt: आपकी पार्किंग जल्द खत्म होगी',
      `ज़ोन ${f.zone_number} में ${f.plate} की आपकी पार्किंग ${time(f, 'hi-IN')} पर खत्म होगी (${minutesLeft} मिनट में)।`,
    ),
    es: message(
      f,
      'ParkIt: su estacionamiento termina pronto',
      `Su estacionamiento de ${f.plate} en la zona ${f.zone_number} termina a las ${time(f, 'es-US')} (${minutesLeft === 1 ? 'en 1 minuto' : `en ${minutesLeft} minutos`}).`,
    ),
  };
}

export function endedPush(f: SessionFacts): Localised {
  return {
    en: message(
      f,
      'ParkIt: your parking has ended',
      `Your parking for ${f.plate} in zone ${f.zone_number} ended at ${time(f, 'en-US')}.`,
    ),
    hi: message(
      f,
      'ParkIt: आपकी पार्किंग खत्म हो गई',
      `ज़ोन ${f.zone_number} में ${f.plate} की आपकी पार्किंग ${time(f, 'hi-IN')} पर खत्म हो गई।`,
    ),
    es: message(
      f,
      'ParkIt: su estacionamiento terminó',
      `Su estacionamiento de ${f.plate} en la zona ${f.zone_number} terminó a las ${time(f, 'es-US')}.`,
    ),
  };
}

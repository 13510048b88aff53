import { sql } from 'drizzle-orm';
import { centsToAmount, type PushMessage } from '@parkit/contract';
import { queryRows, type Tx } from '../db/client.ts';
import { enqueue } from '../infra/outbox-repository.ts';
import { enqueueForMember, type Localised } from '../infra/push/push-repository.ts';
import { languageOr } from '../lib/language.ts';

const HOUR_MS = 60 * 60 * 1000;

export interface DecisionFacts {
  citationId: number;
  plate: string;
  plateState: string;
  /** A contest's decision, or 'right-found': cancelled without a contest, a right covered the moment. */
  decision: 'upheld' | 'cancelled' | 'reduced' | 'right-found';
  fineCents: number;
  refundCents: number;
  /** The refund goes back to the card it was paid with (its last 4 digits, null when unknown), not the wallet. */
  card?: { last4: string | null } | null;
}

const amount = (cents: number) => centsToAmount(cents).toFixed(2);

/** Where the refund of a decision went, as the end of its SMS in each language ('' when nothing went back). */
function backTo(f: DecisionFacts): Localised {
  if (f.refundCents <= 0) return { en: '', hi: '', es: '' };
  const refund = amount(f.refundCents);
  if (!f.card)
    return {
      en: ` and ${refund} is back in your wallet`,
      hi: ` और ${refund} आपके वॉलेट में वापस आ गए हैं`,
      es: ` y ${refund} volvió a su billetera`,
    };
  const d = f.card.last4;
  return d
    ? {
        en: ` and ${refund} goes back to your card ending ${d}`,
        hi: ` और ${refund} आपके ${d} पर खत्म होने वाले कार्ड में वापस भेजे जा रहे हैं`,
        es: ` y ${refund} se devuelve a su tarjeta terminada en ${d}`,
      }
    : {
        en: ` and ${refund} goes back to the card you paid with`,
        hi: ` और ${refund} उस कार्ड में वापस भेजे जा रहे हैं जिससे आपने भुगतान किया था`,
        es: ` y ${refund} se devuelve a la tarjeta con la que pagó`,
      };
}

/** The SMS of a contest's decision, in each language (the owner's saved language picks one). */
export function decisionSms(f: DecisionFacts): Localised {
  const n = f.citationId;
  const base = `ParkIt: your contest of citation ${n} for ${f.plate}`;
  const back = backTo(f);
  if (f.decision === 'right-found')
    return {
      en: `ParkIt: citation ${n} for ${f.plate} is cancelled: you had a right to park then${back.en}.`,
      hi: `ParkIt: ${f.plate} का चालान ${n} रद्द है: उस समय आपको पार्क करने का अधिकार था${back.hi}।`,
      es: `ParkIt: la multa ${n} de ${f.plate} está cancelada: usted tenía derecho a estacionar en ese momento${back.es}.`,
    };
  if (f.decision === 'cancelled')
    return {
      en: `${base} was accepted: the citation is cancelled${back.en}.`,
      hi: `ParkIt: ${f.plate} के चालान ${n} पर आपकी आपत्ति स्वीकार हुई: चालान रद्द है${back.hi}।`,
      es: `ParkIt: su impugnación de la multa ${n} de ${f.plate} fue aceptada: la multa está cancelada${back.es}.`,
    };
  if (f.decision === 'reduced')
    return {
      en: `${base} was partly accepted: the fine is now ${amount(f.fineCents)}${back.en}.`,
      hi: `ParkIt: ${f.plate} के चालान ${n} पर आपकी आपत्ति आंशिक रूप से स्वीकार हुई: जुर्माना अब ${amount(f.fineCents)} है${back.hi}।`,
      es: `ParkIt: su impugnación de la multa ${n} de ${f.plate} fue aceptada en parte: la multa ahora es de ${amount(f.fineCents)}${back.es}.`,
    };
  return {
    en: `${base} was refused: the fine of ${amount(f.fineCents)} stands.`,
    hi: `ParkIt: ${f.plate} के चालान ${n} पर आपकी आपत्ति अस्वीकार हुई: ${amount(f.fineCents)} का जुर्माना बना रहेगा।`,
    es: `ParkIt: su impugnación de la multa ${n} de ${f.plate} fue rechazada: la multa de ${amount(f.fineCents)} se mantiene.`,
  };
}

/** A card refund of a citation the provider refused: the amount is in the wallet instead. */
export interface RefusedRefund {
  memberId: number;
  citationId: number;
  plate: string;
  last4: string | null;
  cents: number;
}

/** The SMS (and push body) of a refused card refund, in each language. */
export function refusedRefundSms(r: RefusedRefund): Localised {
  const a = amount(r.cents);
  const n = r.citationId;
  return r.last4
    ? {
        en: `ParkIt: your card ending ${r.last4} refused the refund of ${a} for citation ${n} (${r.plate}); the ${a} is in your ParkIt wallet instead.`,
        hi: `ParkIt: आपके ${r.last4} पर खत्म होने वाले कार्ड ने चालान ${n} (${r.plate}) के ${a} की वापसी अस्वीकार कर दी; ${a} इसके बजाय आपके ParkIt वॉलेट में हैं।`,
        es: `ParkIt: su tarjeta terminada en ${r.last4} rechazó el reembolso de ${a} de la multa ${n} (${r.plate}); los ${a} están en su billetera de ParkIt.`,
      }
    : {
        en: `ParkIt: your card refused the refund of ${a} for citation ${n} (${r.plate}); the ${a} is in your ParkIt wallet instead.`,
        hi: `ParkIt: आपके कार्ड ने चालान ${n} (${r.plate}) के ${a} की वापसी अस्वीकार कर दी; ${a} इसके बजाय आपके ParkIt वॉलेट में हैं।`,
        es: `ParkIt: su tarjeta rechazó el reembolso de ${a} de la multa ${n} (${r.plate}); los ${a} están en su billetera de ParkIt.`,
      };
}

const message = (f: DecisionFacts, title: string, body: string): string =>
  JSON.stringify({ title, body, url: `/citations`, tag: `citation-${f.citationId}` } satisfies PushMessage);

/** The push of a contest's decision in each language a browser may subscribe in (English is the key). */
export function decisionPush(f: DecisionFacts): Localised {
  const n = f.citationId;
  if (f.decision === 'right-found')
    return {
      en: message(
        f,
        'ParkIt: citation cancelled',
        `Citation ${n} for ${f.plate} is cancelled: you had a right to park then.`,
      ),
      hi: message(
        f,
        'ParkIt: चालान रद्द',
        `${f.plate} का चालान ${n} रद्द कर दिया गया है: उस समय आपको पार्क करने का अधिकार था।`,
      ),
      es: message(
        f,
        'ParkIt: multa cancelada',
        `La multa ${n} de ${f.plate} está cancelada: usted tenía derecho a estacionar en ese momento.`,
      ),
    };
  if (f.decision === 'cancelled')
    return {
      en: message(f, 'ParkIt: citation cancelled', `Citation ${n} for ${f.plate} is cancelled.`),
      hi: message(f, 'ParkIt: चालान रद्द', `${f.plate} का चालान ${n} रद्द कर दिया गया है।`),
      es: message(f, 'ParkIt: multa cancelada', `La multa ${n} de ${f.plate} está cancelada.`),
    };
  if (f.decision === 'reduced') {
    // Where the overpayment went (the card that paid, or the wallet), as the SMS says it.
    const back = backTo(f);
    const fine = amount(f.fineCents);
    return {
      en: message(f, 'ParkIt: fine reduced', `The fine of citation ${n} for ${f.plate} is now ${fine}${back.en}.`),
      hi: message(f, 'ParkIt: जुर्माना घटाया गया', `${f.plate} के चालान ${n} का जुर्माना अब ${fine} है${back.hi}।`),
      es: message(f, 'ParkIt: multa reducida', `La multa ${n} de ${f.plate} ahora es de ${fine}${back.es}.`),
    };
  }
  return {
    en: message(f, 'ParkIt: contest refused', `The fine of citation ${n} for ${f.plate} stands.`),
    hi: message(f, 'ParkIt: आपत्ति अस्वीकार', `${f.plate} के चालान ${n} का जुर्माना बना रहेगा।`),
    es: message(f, 'ParkIt: impugnación rechazada', `La multa ${n} de ${f.plate} se mantiene.`),
  };
}

/**
 * Tells the drivers whose vehicles carry the plate of a contest's decision (or of a citation
 * cancelled because a right was found), on the channels they
 * chose for parking reminders (SMS unless turned off, push where enabled), in the caller's
 * transaction: the outbox and the push outbox send after COMMIT.
 */
export async function notifyDecision(tx: Tx, f: DecisionFacts, now: Date): Promise<void> {
  const owners = await queryRows<{ member_id: number; phone: string; sms: boolean; push: boolean; language: string }>(
    tx,
    sql`select m.id as member_id, m.phone, coalesce(r.sms, true) as sms, coalesce(r.push, false) as push, m.language
        from vehicles v
        join members m on m.id = v.member_id
        left join reminder_settings r on r.member_id = m.id
        where v.plate_key = ${f.plate} and v.plate_state = ${f.plateState}
        order by m.id`,
  );
  for (const o of owners) {
    if (o.sms && o.phone) await enqueue(tx, 'sms', o.phone, decisionSms(f)[languageOr(o.language)]);
    if (o.push)
      await enqueueForMember(tx, Number(o.member_id), decisionPush(f), {
        now,
        expiresAt: new Date(now.getTime() + 24 * HOUR_MS),
      });
  }
}

/** Tells the payer that their card refused a citation's refund (SMS unless turned off, push where enabled), in the caller's transaction. */
export async function notifyCardRefundRefused(tx: Tx, r: RefusedRefund, now: Date): Promise<void> {
  const [o] = await queryRows<{ phone: string; sms: boolean; push: boolean; language: string }>(
    tx,
    sql`select m.phone, coalesce(s.sms, true) as sms, coalesce(s.push, false) as push, m.language
        from members m left join reminder_settings s on s.member_id = m.id
        where m.id = ${r.memberId}`,
  );
  if (!o) return;
  const sms = refusedRefundSms(r);
  if (o.sms && o.phone) await enqueue(tx, 'sms', o.phone, sms[languageOr(o.language)]);
  if (o.push) {
    const title = {
      en: 'ParkIt: refund to your wallet',
      hi: 'ParkIt: वॉलेट में वापसी',
      es: 'ParkIt: reembolso a su billetera',
    };
    const push = (l: keyof Localised) =>
      JSON.stringify({
        title: title[l],
        body: sms[l],
        url: '/citations',
        tag: `citation-${r.citationId}`,
      } satisfies PushMessage);
    await enqueueForMember(
      tx,
      r.memberId,
      { en: push('en'), hi: push('hi'), es: push('es') },
      { now, expiresAt: new Date(now.getTime() + 24 * HOUR_MS) },
    );
  }
}

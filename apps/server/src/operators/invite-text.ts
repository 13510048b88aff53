import { sql } from 'drizzle-orm';
import type { OperatorRole } from '@parkit/contract';
import { queryRows, type Executor } from '../db/client.ts';
import { languageOr, type Language, type Localised } from '../lib/language.ts';

const ROLES: Record<OperatorRole, Localised> = {
  owner: { en: 'owner', hi: 'मालिक', es: 'propietario' },
  manager: { en: 'manager', hi: 'प्रबंधक', es: 'gerente' },
  officer: { en: 'officer', hi: 'अधिकारी', es: 'agente' },
  analyst: { en: 'analyst', hi: 'विश्लेषक', es: 'analista' },
};

/**
 * An invitation's text in each language (docs/conventions.md#the-server): the operator, the role,
 * where to enter the code (/operator/join, the same in every language) and when it expires.
 */
export function inviteText(
  operator: string,
  role: OperatorRole,
  channel: 'sms' | 'email',
  code: string,
  days: number,
): Localised {
  const r = ROLES[role];
  return {
    en: `You are invited to join ${operator} on ParkIt as ${r.en}. Sign in (or register) with this ${channel === 'sms' ? 'phone' : 'e-mail address'}, open /operator/join and enter the code ${code}. It expires in ${days} days.`,
    hi: `आपको ParkIt पर ${operator} में ${r.hi} के रूप में जुड़ने का आमंत्रण है। इस ${channel === 'sms' ? 'फ़ोन' : 'ई-मेल पते'} से साइन इन (या पंजीकरण) करें, /operator/join खोलें और कोड ${code} दर्ज करें। यह ${days} दिनों में समाप्त हो जाएगा।`,
    es: `Le invitan a unirse a ${operator} en ParkIt como ${r.es}. Inicie sesión (o regístrese) con este ${channel === 'sms' ? 'teléfono' : 'correo electrónico'}, abra /operator/join e ingrese el código ${code}. Vence en ${days} días.`,
  };
}

/**
 * The language an invitation is written in: the invited person's saved language when the phone or
 * e-mail address is already a member's, else the inviter's (the console's request).
 */
export async function inviteLanguage(db: Executor, contact: string, inviters: Language): Promise<Language> {
  const [row] = await queryRows<{ language: string }>(
    db,
    sql`select language from members where phone = ${contact} or lower(email) = ${contact} order by id limit 1`,
  );
  return row ? languageOr(row.language) : inviters;
}

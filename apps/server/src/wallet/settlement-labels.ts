import { LOCALES, type Language, type Localised } from '../lib/language.ts';
import { formatLocal } from '../lib/local-time.ts';

/**
 * A settlement statement's words in English, Hindi and Spanish (docs/conventions.md#the-server;
 * English is the key and what the CSV always said). The console's language (Accept-Language)
 * picks one, as for the report CSVs; the data (ids, sources, amounts, ISO times in the CSV) is
 * the same in every language.
 */
const LABELS = {
  'Settlement statement': { en: 'Settlement statement', hi: 'निपटान विवरण', es: 'Estado de liquidación' },
  Statement: { en: 'Statement', hi: 'विवरण', es: 'Estado de cuenta' },
  Period: { en: 'Period', hi: 'अवधि', es: 'Período' },
  Start: { en: 'Start', hi: 'आरंभ', es: 'Inicio' },
  'Cut-off': { en: 'Cut-off', hi: 'अंतिम समय', es: 'Corte' },
  Gross: { en: 'Gross', hi: 'सकल', es: 'Bruto' },
  Refunds: { en: 'Refunds', hi: 'धनवापसी', es: 'Reembolsos' },
  Fees: { en: 'Fees', hi: 'शुल्क', es: 'Cargos' },
  Net: { en: 'Net', hi: 'शुद्ध', es: 'Neto' },
  Source: { en: 'Source', hi: 'स्रोत', es: 'Origen' },
  SourceId: { en: 'SourceId', hi: 'स्रोत आईडी', es: 'Id. de origen' },
  SessionId: { en: 'SessionId', hi: 'सत्र आईडी', es: 'Id. de sesión' },
  Amount: { en: 'Amount', hi: 'राशि', es: 'Monto' },
  Fee: { en: 'Fee', hi: 'शुल्क', es: 'Cargo' },
  At: { en: 'At', hi: 'समय', es: 'Fecha' },
  Day: { en: 'Day', hi: 'दिन', es: 'Día' },
  Month: { en: 'Month', hi: 'माह', es: 'Mes' },
  from: { en: 'from', hi: 'से', es: 'desde' },
  by: { en: 'by', hi: 'द्वारा', es: 'por' },
  'Covers money moved before': {
    en: 'Covers money moved before',
    hi: 'इससे पहले का धन शामिल',
    es: 'Incluye el dinero movido antes de',
  },
  Issued: { en: 'Issued', hi: 'जारी', es: 'Emitido' },
  'Platform fees': { en: 'Platform fees', hi: 'प्लेटफ़ॉर्म शुल्क', es: 'Cargos de la plataforma' },
  Lines: { en: 'Lines', hi: 'पंक्तियाँ', es: 'Líneas' },
  Id: { en: 'Id', hi: 'आईडी', es: 'Id.' },
  Session: { en: 'Session', hi: 'सत्र', es: 'Sesión' },
  'Times are local to the operator': {
    en: 'Times are local to the operator',
    hi: 'समय संचालक के स्थानीय समय में हैं',
    es: 'Las horas son locales del operador',
  },
} satisfies Record<string, Localised>;

export type SettlementLabel = keyof typeof LABELS;

export const settlementText = (lang: Language, label: SettlementLabel): string => LABELS[label][lang];

/** Money in the language's number format after the currency's symbol ('-$1,234.50'). */
export const settlementMoney = (lang: Language, amount: number, symbol: string): string =>
  `${amount < 0 ? '-' : ''}${symbol}${new Intl.NumberFormat(LOCALES[lang], {
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(Math.abs(amount))}`;

/** A time in the operator's time zone, in the language's date format (a receipt's: lib/local-time.ts). */
export const settlementTime = (lang: Language, iso: string, timeZone: string): string =>
  formatLocal(new Date(iso), timeZone, lang);

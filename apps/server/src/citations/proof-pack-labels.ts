import { plural, type Language, type Localised } from '../lib/language.ts';

/**
 * The proof pack's words in English, Hindi and Spanish (docs/conventions.md#the-server; English
 * is the key). `?lang=`, else Accept-Language, picks one, as for the receipt.
 */
const LABELS = {
  'Proof pack': { en: 'Proof pack', hi: 'साक्ष्य पैक', es: 'Paquete de pruebas' },
  'Citation #': { en: 'Citation #', hi: 'चालान संख्या', es: 'Número de multa' },
  Citation: { en: 'Citation', hi: 'चालान', es: 'Multa' },
  Zone: { en: 'Zone', hi: 'ज़ोन', es: 'Zona' },
  'Vehicle Plate #': { en: 'Vehicle Plate #', hi: 'वाहन प्लेट #', es: 'Número de placa' },
  State: { en: 'State', hi: 'राज्य', es: 'Estado' },
  Violation: { en: 'Violation', hi: 'उल्लंघन', es: 'Infracción' },
  Issued: { en: 'Issued', hi: 'जारी', es: 'Emitida' },
  'Officer ID': { en: 'Officer ID', hi: 'अधिकारी आईडी', es: 'Id. del agente' },
  Officer: { en: 'Officer', hi: 'अधिकारी', es: 'Agente' },
  Location: { en: 'Location', hi: 'स्थान', es: 'Ubicación' },
  Fine: { en: 'Fine', hi: 'जुर्माना', es: 'Importe de la multa' },
  'Parking sessions that day': {
    en: 'Parking sessions that day',
    hi: 'उस दिन के पार्किंग सत्र',
    es: 'Sesiones de estacionamiento de ese día',
  },
  'Session ID': { en: 'Session ID', hi: 'सत्र आईडी', es: 'Id. de sesión' },
  Started: { en: 'Started', hi: 'शुरू', es: 'Inicio' },
  Ended: { en: 'Ended', hi: 'समाप्त', es: 'Fin' },
  'Amount Paid': { en: 'Amount Paid', hi: 'भुगतान की गई राशि', es: 'Monto pagado' },
  'Quote #': { en: 'Quote #', hi: 'कोटेशन संख्या', es: 'Número de cotización' },
  'Receipt #': { en: 'Receipt #', hi: 'रसीद संख्या', es: 'Número de recibo' },
  'Permits valid that day': { en: 'Permits valid that day', hi: 'उस दिन मान्य परमिट', es: 'Permisos vigentes ese día' },
  'Permit #': { en: 'Permit #', hi: 'परमिट संख्या', es: 'Número de permiso' },
  'Valid from': { en: 'Valid from', hi: 'से मान्य', es: 'Vigente desde' },
  'Valid until': { en: 'Valid until', hi: 'तक मान्य', es: 'Vigente hasta' },
  'Visitor days': { en: 'Visitor days', hi: 'आगंतुक दिवस', es: 'Días de visitante' },
  'Visitor day #': { en: 'Visitor day #', hi: 'आगंतुक दिवस संख्या', es: 'Número de día de visitante' },
  Day: { en: 'Day', hi: 'दिन', es: 'Día' },
  'Plate checks that day': {
    en: 'Plate checks that day',
    hi: 'उस दिन की प्लेट जाँचें',
    es: 'Verificaciones de placa de ese día',
  },
  Paid: { en: 'Paid', hi: 'भुगतान हो गया', es: 'Pagado' },
  'Not paid': { en: 'Not paid', hi: 'भुगतान नहीं हुआ', es: 'No pagado' },
  'Zone not found': { en: 'Zone not found', hi: 'ज़ोन नहीं मिला', es: 'Zona no encontrada' },
  session: { en: 'session', hi: 'सत्र', es: 'sesión' },
  'None found.': { en: 'None found.', hi: 'कुछ नहीं मिला।', es: 'No se encontró ninguno.' },
  'Times are local to the zone': {
    en: 'Times are local to the zone',
    hi: 'समय ज़ोन के स्थानीय समय में हैं',
    es: 'Las horas son locales de la zona',
  },
  'Made from ParkIt’s own records on': {
    en: 'Made from ParkIt’s own records on',
    hi: 'ParkIt के अपने रिकॉर्ड से बनाया गया:',
    es: 'Preparado con los registros de ParkIt el',
  },
} satisfies Record<string, Localised>;

export type ProofPackLabel = keyof typeof LABELS;

export function proofPackText(lang: Language, english: ProofPackLabel): string {
  return LABELS[english][lang];
}

/** The words a check's outcome prints as (the outcomes an answered check can have). */
export function checkOutcomeText(lang: Language, outcome: string): string {
  if (outcome === 'paid') return proofPackText(lang, 'Paid');
  if (outcome === 'not_paid') return proofPackText(lang, 'Not paid');
  if (outcome === 'zone_not_found') return proofPackText(lang, 'Zone not found');
  return outcome;
}

/** Checks of the zone that day whose plate retention removed: they can no longer be matched. */
export function anonymisedChecksText(lang: Language, n: number): string {
  const texts: Record<Language, { one: string; other: string }> = {
    en: {
      one: '# plate check in this zone that day no longer shows its plate (the operator’s retention anonymised it): it cannot be matched to this plate.',
      other:
        '# plate checks in this zone that day no longer show their plate (the operator’s retention anonymised them): they cannot be matched to this plate.',
    },
    hi: {
      one: 'उस दिन इस ज़ोन की # प्लेट जाँच में अब प्लेट नहीं दिखती (संचालक की प्रतिधारण नीति ने उसे गुमनाम कर दिया): उसे इस प्लेट से नहीं मिलाया जा सकता।',
      other:
        'उस दिन इस ज़ोन की # प्लेट जाँचों में अब प्लेट नहीं दिखती (संचालक की प्रतिधारण नीति ने उन्हें गुमनाम कर दिया): उन्हें इस प्लेट से नहीं मिलाया जा सकता।',
    },
    es: {
      one: '# verificación de placa en esta zona ese día ya no muestra la placa (la retención del operador la anonimizó): no se puede relacionar con esta placa.',
      other:
        '# verificaciones de placa en esta zona ese día ya no muestran la placa (la retención del operador las anonimizó): no se pueden relacionar con esta placa.',
    },
  };
  return plural(lang, n, texts[lang]);
}

/** The citation's day is older than the operator's retention period. */
export function pastRetentionText(lang: Language, weeks: number): string {
  const texts: Record<Language, { one: string; other: string }> = {
    en: {
      one: 'The operator anonymises the plates of plate checks and expired permits after # week. This citation is older: such records of this plate may no longer be found.',
      other:
        'The operator anonymises the plates of plate checks and expired permits after # weeks. This citation is older: such records of this plate may no longer be found.',
    },
    hi: {
      one: 'संचालक # सप्ताह बाद प्लेट जाँचों और समाप्त परमिटों की प्लेटें गुमनाम कर देता है। यह चालान उससे पुराना है: इस प्लेट के ऐसे रिकॉर्ड शायद अब न मिलें।',
      other:
        'संचालक # सप्ताह बाद प्लेट जाँचों और समाप्त परमिटों की प्लेटें गुमनाम कर देता है। यह चालान उससे पुराना है: इस प्लेट के ऐसे रिकॉर्ड शायद अब न मिलें।',
    },
    es: {
      one: 'El operador anonimiza las placas de las verificaciones y de los permisos vencidos después de # semana. Esta multa es anterior: es posible que ya no se encuentren esos registros de esta placa.',
      other:
        'El operador anonimiza las placas de las verificaciones y de los permisos vencidos después de # semanas. Esta multa es anterior: es posible que ya no se encuentren esos registros de esta placa.',
    },
  };
  return plural(lang, weeks, texts[lang]);
}

import type { Language } from '../lib/language.ts';

/** The receipt's words in the member's language (English is the key, as in the web app). */
export type ReceiptLanguage = Language;
export { pickLanguage } from '../lib/language.ts';

const HINDI: Record<string, string> = {
  'Parking Receipt': 'पार्किंग रसीद',
  'Session ID': 'सत्र आईडी',
  Operator: 'संचालक',
  Zone: 'ज़ोन',
  Address: 'पता',
  'Vehicle Plate #': 'वाहन प्लेट #',
  State: 'राज्य',
  Vehicle: 'वाहन',
  Started: 'शुरू',
  Ended: 'समाप्त',
  'Duration (Minutes)': 'अवधि (मिनट)',
  'Parking Amount': 'पार्किंग राशि',
  'Convenience Fee': 'सुविधा शुल्क',
  'Amount Paid': 'भुगतान की गई राशि',
  'Paid Via': 'भुगतान माध्यम',
  'Payment Status': 'भुगतान स्थिति',
  Paid: 'भुगतान हो गया',
  Refunded: 'वापस किया गया',
  'Times are local to the zone': 'समय ज़ोन के स्थानीय समय में हैं',
  'Thank you for parking with ParkIt.': 'पार्किंग के लिए धन्यवाद।',
};

const SPANISH: Record<string, string> = {
  'Parking Receipt': 'Recibo de estacionamiento',
  'Session ID': 'Id. de sesión',
  Operator: 'Operador',
  Zone: 'Zona',
  Address: 'Dirección',
  'Vehicle Plate #': 'Número de placa',
  State: 'Estado',
  Vehicle: 'Vehículo',
  Started: 'Inicio',
  Ended: 'Fin',
  'Duration (Minutes)': 'Duración (minutos)',
  'Parking Amount': 'Monto del estacionamiento',
  'Convenience Fee': 'Cargo por servicio',
  'Amount Paid': 'Monto pagado',
  'Paid Via': 'Pagado con',
  'Payment Status': 'Estado del pago',
  Paid: 'Pagado',
  Refunded: 'Reembolsado',
  'Times are local to the zone': 'Las horas son locales de la zona',
  'Thank you for parking with ParkIt.': 'Gracias por estacionarse con ParkIt.',
};

const LABELS: Record<Exclude<ReceiptLanguage, 'en'>, Record<string, string>> = { hi: HINDI, es: SPANISH };

export function receiptText(lang: ReceiptLanguage, english: string): string {
  return lang === 'en' ? english : (LABELS[lang][english] ?? english);
}

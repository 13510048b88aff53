import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGE_KEY } from './storage.ts';

/**
 * English text is the key (docs/decisions/001-i18n-keys.md): the spec's words stay letter for
 * letter in the source, English needs no file, and Hindi lives in locales/hi/<feature>.json.
 */
const files = import.meta.glob<Record<string, string>>('../locales/hi/*.json', { eager: true, import: 'default' });
export const hindi: Record<string, string> = Object.assign({}, ...Object.values(files));

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'hi', label: 'हिन्दी' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

function storedLanguage(): Language {
  try {
    return localStorage.getItem(LANGUAGE_KEY) === 'hi' ? 'hi' : 'en';
  } catch {
    return 'en';
  }
}

void i18n.use(initReactI18next).init({
  lng: storedLanguage(),
  fallbackLng: 'en',
  resources: { en: { translation: {} }, hi: { translation: hindi } },
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnEmptyString: false,
});
document.documentElement.lang = i18n.language;

export function setLanguage(lang: Language) {
  localStorage.setItem(LANGUAGE_KEY, lang);
  document.documentElement.lang = lang;
  return i18n.changeLanguage(lang);
}

export default i18n;

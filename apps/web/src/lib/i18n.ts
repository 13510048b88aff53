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

/** The browser's own language: Hindi for a Hindi browser, else English (the spec's default). */
export function browserLanguage(): Language {
  const first = (navigator.languages?.[0] ?? navigator.language ?? '').toLowerCase();
  return first === 'hi' || first.startsWith('hi-') ? 'hi' : 'en';
}

/** The language chosen on the profile, else the browser's (also right after logout, issue 7). */
function startLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_KEY);
    if (stored === 'hi' || stored === 'en') return stored;
  } catch {
    // Storage refused (private mode): the browser's language.
  }
  return browserLanguage();
}

/**
 * Devanagari glyphs ship with the app (phones without a Devanagari font showed empty boxes,
 * issue 7) and load only for Hindi: English readers never download them.
 */
function applyLanguage(lang: Language) {
  document.documentElement.lang = lang;
  if (lang === 'hi') void import('./hindi-font.ts');
}

void i18n.use(initReactI18next).init({
  lng: startLanguage(),
  fallbackLng: 'en',
  resources: { en: { translation: {} }, hi: { translation: hindi } },
  keySeparator: false,
  nsSeparator: false,
  interpolation: { escapeValue: false },
  returnEmptyString: false,
});
applyLanguage(i18n.language as Language);

export function setLanguage(lang: Language) {
  localStorage.setItem(LANGUAGE_KEY, lang);
  applyLanguage(lang);
  return i18n.changeLanguage(lang);
}

/** After logout nothing is stored: the browser's language again. */
export function followBrowserLanguage() {
  const lang = browserLanguage();
  applyLanguage(lang);
  return i18n.changeLanguage(lang);
}

export default i18n;

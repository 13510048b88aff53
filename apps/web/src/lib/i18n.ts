import { useSyncExternalStore } from 'react';
import { LANGUAGE_KEY } from './storage.ts';

/**
 * English text is the key (docs/decisions/001-i18n-keys.md): the spec's words stay letter for
 * letter in the source, English needs no file, and Hindi lives in locales/hi/<feature>.json.
 * What the app needs of a translation library is a lookup and `{{name}}` interpolation, so it is
 * this module (docs/decisions/005-i18n-without-a-library.md): English costs the first screen
 * nothing, and the Hindi text is downloaded only when the language is Hindi (issue 9).
 */

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'hi', label: 'हिन्दी' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

/** Values for the `{{name}}` placeholders of a text. */
export type TOptions = Record<string, unknown>;
export type TFunction = (key: string, options?: TOptions) => string;

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
 * Every Hindi text (lib/hindi.ts, one chunk) and the Devanagari font (lib/hindi-font.ts), fetched
 * together the first time Hindi is wanted. The glyphs ship with the app (phones without a
 * Devanagari font showed empty boxes, issue 7), English readers never download them, and Hindi
 * shows only once its font faces are declared.
 */
let hindi: Record<string, string> | null = null;
export async function loadHindi(): Promise<Record<string, string>> {
  hindi ??= (await Promise.all([import('./hindi.ts'), import('./hindi-font.ts')]))[0].hindi;
  return hindi;
}

/**
 * `{{name}}` takes options.name; a name given as undefined or null becomes '', a name not given
 * at all stays as written (as i18next did with escapeValue off). Values are not read again.
 */
function interpolate(text: string, options: TOptions): string {
  return text.replace(/\{\{(.+?)\}\}/g, (whole, raw: string) => {
    const name = raw.trim();
    if (!Object.prototype.hasOwnProperty.call(options, name)) return whole;
    const value = options[name];
    return value === undefined || value === null ? '' : String(value);
  });
}

function translator(lang: Language, dictionary: Record<string, string> | null): TFunction {
  return (key, options) => {
    // An empty translation falls back to the English text too.
    const text = (lang === 'hi' && dictionary?.[key]) || key;
    return options ? interpolate(text, options) : text;
  };
}

interface State {
  language: Language;
  t: TFunction;
}
let state: State = { language: 'en', t: translator('en', null) };
const listeners = new Set<() => void>();
let requested = 0;

/**
 * Switches the language once its text is here (at once for English), so a screen never shows
 * half of each. A later call wins over an earlier one still loading.
 */
async function changeLanguage(lang: Language): Promise<void> {
  const ticket = ++requested;
  let dictionary: Record<string, string> | null = null;
  try {
    if (lang === 'hi') dictionary = await loadHindi();
  } catch {
    return; // The chunk did not come (offline): the language stays as it is; a later try loads it.
  }
  if (ticket !== requested) return;
  document.documentElement.lang = lang;
  if (state.language === lang) return;
  state = { language: lang, t: translator(lang, dictionary) };
  for (const listener of listeners) listener();
}

/** Tells `listener` of every language change until the returned function is called (a screen's, when it unmounts). */
function onChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const i18n = {
  get language(): Language {
    return state.language;
  },
  /** For code outside React (the API client's toasts); screens use useTranslation(). */
  t: ((key, options) => state.t(key, options)) as TFunction,
  changeLanguage,
  onChange,
};
export default i18n;

const current = () => state;

/** A screen's `t`, re-rendering it when the language changes. */
export function useTranslation(): { t: TFunction; i18n: typeof i18n } {
  const { t } = useSyncExternalStore(i18n.onChange, current, current);
  return { t, i18n };
}

/**
 * Switches to the start language (the profile's, else the browser's); resolves when its text is
 * here: main.tsx calls it once and renders after it (no English flash).
 */
export function loadStartLanguage(): Promise<void> {
  return changeLanguage(startLanguage());
}

export function setLanguage(lang: Language) {
  localStorage.setItem(LANGUAGE_KEY, lang);
  return changeLanguage(lang);
}

/** After logout nothing is stored: the browser's language again. */
export function followBrowserLanguage() {
  return changeLanguage(browserLanguage());
}

import { useSyncExternalStore } from 'react';
import { I18n, type Messages } from '@lingui/core';
import type { CompiledMessage } from '@lingui/message-utils/compileMessage';
import { LANGUAGE_KEY } from './storage.ts';

/**
 * English text is the key (docs/decisions/001-i18n-keys.md): the spec's words stay letter for
 * letter in the source, and Hindi lives in locales/hi/<feature>.json. Lingui's runtime
 * (docs/decisions/014-i18n-lingui.md) looks a text up, fills its `{{name}}` placeholders, picks a
 * count's plural form by the language's rules and formats numbers; the catalogs reach it compiled
 * (apps/web/catalogs.ts). English needs a catalog only for the texts whose English is not the key
 * (a count's forms, locales/en/); the Hindi text is downloaded only when the language is Hindi
 *.
 */

export const LANGUAGES = [
  { code: 'en', label: 'English' },
  { code: 'hi', label: 'हिन्दी' },
  { code: 'es', label: 'Español' },
] as const;
export type Language = (typeof LANGUAGES)[number]['code'];

const isLanguage = (code: unknown): code is Language => LANGUAGES.some((l) => l.code === code);

/**
 * Each language's locale for numbers, currency, dates and plural rules: Spanish is the United
 * States' (es-US: "$1,234.50", as the demo city's drivers read it), Hindi India's.
 */
export const LOCALES: Record<Language, string> = { en: 'en-US', hi: 'hi', es: 'es-US' };

/** Values for the `{{name}}` placeholders of a text, and the count its plural form follows. */
export type TOptions = Record<string, unknown>;
export type TFunction = (key: string, options?: TOptions) => string;

/**
 * The browser's own language: Hindi for a Hindi browser, Spanish for a Spanish one (es, es-US,
 * es-MX, ...), else English (the spec's default). Only the first choice counts.
 */
export function browserLanguage(): Language {
  const first = (navigator.languages?.[0] ?? navigator.language ?? '').toLowerCase();
  const base = first.split('-')[0];
  return base === 'hi' || base === 'es' ? base : 'en';
}

/** The language chosen on the profile, else the browser's (also right after logout). */
function startLanguage(): Language {
  try {
    const stored = localStorage.getItem(LANGUAGE_KEY);
    if (isLanguage(stored)) return stored;
  } catch {
    // Storage refused (private mode): the browser's language.
  }
  return browserLanguage();
}

/** The forms of English counts (locales/en/*.json), compiled: every other English text is its key. */
const english: Messages = Object.assign(
  {},
  ...Object.values(import.meta.glob<Messages>('../locales/en/*.json', { eager: true, import: 'default' })),
);

/**
 * Every Hindi text (lib/hindi.ts, one chunk) and the Devanagari font (lib/hindi-font.ts), fetched
 * together the first time Hindi is wanted. The glyphs ship with the app (phones without a
 * Devanagari font showed empty boxes), English readers never download them, and Hindi
 * shows only once every weight's face has loaded (a text drawn before kept its boxes).
 */
let hindi: Messages | null = null;
export async function loadHindi(): Promise<Messages> {
  if (hindi) return hindi;
  const [text, font] = await Promise.all([import('./hindi.ts'), import('./hindi-font.ts')]);
  await font.hindiFontReady();
  hindi ??= text.hindi;
  return hindi;
}

/**
 * Every Spanish text (lib/spanish.ts, one chunk), fetched the first time Spanish is wanted: English
 * readers never download it. No font: the system's Latin face has every Spanish letter.
 */
let spanish: Messages | null = null;
export async function loadSpanish(): Promise<Messages> {
  if (spanish) return spanish;
  const text = await import('./spanish.ts');
  spanish ??= text.spanish;
  return spanish;
}

const loaders: Record<Exclude<Language, 'en'>, () => Promise<Messages>> = { hi: loadHindi, es: loadSpanish };

/**
 * A text no catalog holds (an English key, or a Hindi text still missing) as Lingui's compiled
 * message: its `{{name}}` placeholders (the name trimmed, never blank), and nothing else (no ICU
 * syntax, so an apostrophe or a `#` is itself). A value given as undefined or null becomes '', as
 * does a name not given; values are not read again.
 */
function compileKey(key: string): CompiledMessage {
  // A text without placeholders stays a string, which Lingui returns as it is (no interpolation).
  if (!key.includes('{{')) return key as unknown as CompiledMessage;
  return key
    .split(/\{\{\s*([^{}]*?[^{}\s])\s*\}\}/)
    .map((part, i): string | [string] => (i % 2 === 1 ? [part] : part))
    .filter((part) => part !== '');
}

/** One Lingui instance per language, made when the language is first shown. */
function linguiFor(lang: Language, messages: Messages): I18n {
  const lingui = new I18n({});
  lingui.setMessagesCompiler(compileKey);
  // Hindi and Spanish fall back to English for a text they lack: a count keeps its English forms.
  lingui.loadAndActivate({
    locale: LOCALES[lang],
    messages: lang === 'en' ? messages : { ...english, ...messages },
  });
  return lingui;
}

function translator(lingui: I18n): TFunction {
  // The values' own names only: a placeholder called toString is not Object.prototype's.
  return (key, options) => lingui._(key, options && Object.assign(Object.create(null) as TOptions, options));
}

interface State {
  language: Language;
  t: TFunction;
  lingui: I18n;
}
const englishLingui = linguiFor('en', english);
let state: State = { language: 'en', t: translator(englishLingui), lingui: englishLingui };
const listeners = new Set<() => void>();
let requested = 0;
const linguis: Partial<Record<Language, I18n>> = { en: englishLingui };

/**
 * Switches the language once its text is here (at once for English), so a screen never shows
 * half of each. A later call wins over an earlier one still loading.
 */
async function changeLanguage(lang: Language): Promise<void> {
  const ticket = ++requested;
  let lingui: I18n;
  try {
    lingui = linguis[lang] ??= linguiFor(lang, await loaders[lang as Exclude<Language, 'en'>]());
  } catch {
    return; // The chunk did not come (offline): the language stays as it is; a later try loads it.
  }
  if (ticket !== requested) return;
  document.documentElement.lang = lang;
  if (state.language === lang) return;
  state = { language: lang, t: translator(lingui), lingui };
  for (const listener of listeners) listener();
}

/** Tells `listener` of every language change until the returned function is called (a screen's, when it unmounts). */
function onChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** A number in the reader's language: its digits, grouping and decimal sign. */
export function formatNumber(value: number, options?: Intl.NumberFormatOptions): string {
  return state.lingui.number(value, options);
}

/** An amount of money (in units, e.g. 12.5) in the reader's language, in `currency` (ISO 4217: 'USD'). */
export function formatCurrency(amount: number, currency: string): string {
  return state.lingui.number(amount, { style: 'currency', currency });
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

import type { PushLanguage } from '@parkit/contract';

/**
 * The languages the server writes its texts in (docs/conventions.md#the-server): English, the key
 * and the spec's letter; Hindi; Spanish (es-US, the usted form).
 */
export type Language = PushLanguage;

/** One text in each language; English is the spec's wording. */
export type Localised = Record<Language, string>;

/** Each language's locale for Intl's dates, times and plural rules. */
export const LOCALES: Record<Language, string> = { en: 'en-US', hi: 'hi-IN', es: 'es-US' };

export const isLanguage = (code: unknown): code is Language => code === 'en' || code === 'hi' || code === 'es';

/** ?lang= wins; otherwise the first of Accept-Language that we speak; English by default. */
export function pickLanguage(query: string | undefined, acceptLanguage: string | undefined): Language {
  if (isLanguage(query)) return query;
  for (const part of (acceptLanguage ?? '').split(',')) {
    const tag = part.split(';')[0]?.trim().toLowerCase() ?? '';
    const base = tag.split('-')[0];
    if (isLanguage(base)) return base;
  }
  return 'en';
}

/** A stored language (a member's, a phone's), English when unknown. */
export const languageOr = (code: unknown): Language => (isLanguage(code) ? code : 'en');

/**
 * A count's form by the language's plural rules (Intl.PluralRules): `forms.one` for one, `other`
 * for the rest; `#` stands for the count.
 */
export function plural(lang: Language, n: number, forms: { one: string; other: string }): string {
  const form = new Intl.PluralRules(LOCALES[lang]).select(n) === 'one' ? forms.one : forms.other;
  return form.replaceAll('#', String(n));
}

import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
// Every message set the contract exports, read by name (serverMessages); formatMoney is not used.
// eslint-disable-next-line no-restricted-imports
import * as contract from '@parkit/contract';
import i18n, {
  browserLanguage,
  formatCurrency,
  formatNumber,
  loadHindi,
  loadSpanish,
  setLanguage,
  useTranslation,
} from './i18n.ts';

const hindi = await loadHindi();
const spanish = await loadSpanish();

const SRC = join(__dirname, '..');

/** The catalogs as written (locales/<language>/*.json): the app gets them compiled. */
function written(language: string): Record<string, string> {
  const dir = join(SRC, 'locales', language);
  return Object.assign(
    {},
    ...readdirSync(dir).map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as Record<string, string>),
  );
}
const hindiText = written('hi');
const spanishText = written('es');
const englishForms = written('en');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) return sources(p);
    return /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f) ? [p] : [];
  });
}

/** Every literal passed to t('…') in the app. */
function usedKeys(): Set<string> {
  const keys = new Set<string>();
  const re = /\bt\(\s*(['"`])((?:\\.|(?!\1).)*)\1/g;
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(re)) if (!m[2]!.includes('${')) keys.add(m[2]!.replace(/\\(['"`])/g, '$1'));
  }
  return keys;
}

/**
 * Every message the server sends or the contract's validation gives (the client translates them):
 * the texts of every `*_MESSAGES` and `*_TEXTS` set the contract exports, so a new set is checked
 * without being listed here. The APDS sets are left out: they answer partner apps' machines under
 * /apds/, in English as the APDS document does, and no screen shows them.
 */
function serverMessages() {
  const sets = Object.entries(contract).filter(
    ([name]) => /_(MESSAGES|TEXTS)$/.test(name) && !name.startsWith('APDS_'),
  );
  expect(sets.length).toBeGreaterThan(20);
  return sets.flatMap(([, set]) => Object.values(set as object).filter((m): m is string => typeof m === 'string'));
}

/** A screen that uses the language and counts its renders. */
function countRenders() {
  const counted = { renders: 0 };
  function Counter() {
    useTranslation();
    counted.renders++;
    return null;
  }
  return { Counter, counted };
}

describe('i18n', () => {
  it('has a Hindi translation for every string the app translates', () => {
    const missing = [...usedKeys()].filter((k) => !(k in hindi));
    expect(missing).toEqual([]);
  });

  it('has a Hindi translation for every server and validation message', () => {
    expect(serverMessages().filter((m) => !(m in hindi))).toEqual([]);
  });

  it('has a Spanish translation for every string the app translates, and every server message', () => {
    expect([...usedKeys()].filter((k) => !(k in spanish))).toEqual([]);
    expect(serverMessages().filter((m) => !(m in spanish))).toEqual([]);
  });

  it('Spanish has every text Hindi has, file by file, with the same placeholders', () => {
    const names = (text: string) =>
      [...text.matchAll(/\{\{\s*(.+?)\s*\}\}|\{(\w+), plural, /g)].map((m) => m[1] ?? m[2]).sort();
    for (const file of readdirSync(join(SRC, 'locales', 'hi'))) {
      const read = (lang: string) =>
        JSON.parse(readFileSync(join(SRC, 'locales', lang, file), 'utf8')) as Record<string, string>;
      const hi = read('hi');
      const es = read('es');
      expect(
        Object.keys(hi).filter((k) => !es[k]),
        `es/${file}: missing`,
      ).toEqual([]);
      expect(
        Object.keys(es).filter((k) => !(k in hi)),
        `es/${file}: not in hi/${file}`,
      ).toEqual([]);
      for (const key of Object.keys(hi)) expect(names(es[key]!), `es/${file}: ${key}`).toEqual(names(hi[key]!));
    }
  });

  it('falls back to the English text and switches to Hindi on request', async () => {
    expect(i18n.t('Unexpected Application Error!')).toBe('Unexpected Application Error!');
    await setLanguage('hi');
    expect(i18n.t('Unexpected Application Error!')).not.toBe('Unexpected Application Error!');
    expect(localStorage.getItem('language')).toBe('hi');
    await setLanguage('en');
  });

  it('fills {{name}} placeholders in English and in Hindi', async () => {
    const key = 'Try again in {{seconds}} s.';
    expect(i18n.t(key, { seconds: 5 })).toBe('Try again in 5 s.');
    expect(i18n.t(key, { seconds: 0 })).toBe('Try again in 0 s.');
    expect(i18n.t(key, { seconds: null })).toBe('Try again in  s.');
    expect(i18n.t(key, {})).toBe('Try again in  s.'); // nothing given: empty
    expect(i18n.t('{{a}} and {{ b }}', { a: '{{b}}', b: 2 })).toBe('{{b}} and 2'); // values are not read again
    await setLanguage('hi');
    try {
      expect(hindiText[key]).toContain('{{seconds}}');
      expect(i18n.t(key, { seconds: 7 })).toBe(hindiText[key]!.replace('{{seconds}}', '7'));
      expect(i18n.t('A text with no Hindi entry')).toBe('A text with no Hindi entry');
    } finally {
      await setLanguage('en');
    }
  });

  it('re-renders a screen in the new language, and the last choice wins', async () => {
    function Title() {
      const { t } = useTranslation();
      return <h1>{t('Unexpected Application Error!')}</h1>;
    }
    render(<Title />);
    expect(screen.getByRole('heading').textContent).toBe('Unexpected Application Error!');
    await act(() => setLanguage('hi'));
    expect(screen.getByRole('heading').textContent).toBe(hindiText['Unexpected Application Error!']);
    expect(document.documentElement.lang).toBe('hi');
    await act(async () => {
      const late = setLanguage('hi');
      await setLanguage('en');
      await late;
    });
    expect(screen.getByRole('heading').textContent).toBe('Unexpected Application Error!');
    expect(document.documentElement.lang).toBe('en');
  });
});

// What a mutation run of this file found untested.
describe("the browser's language", () => {
  afterEach(() => vi.unstubAllGlobals());
  const browser = (languages: string[] | undefined, language?: string) =>
    vi.stubGlobal('navigator', { ...navigator, languages, language });

  it('Hindi for hi and hi-XX in any case, English for anything else', () => {
    for (const [languages, want] of [
      [['hi'], 'hi'],
      [['HI-in', 'en'], 'hi'],
      [['hi-IN'], 'hi'],
      [['en-IN', 'hi'], 'en'], // the first choice counts
      [['hil'], 'en'], // Hiligaynon is not Hindi
      [['en-GB'], 'en'],
      [['mr-IN'], 'en'],
      [['es'], 'es'],
      [['es-US', 'en'], 'es'],
      [['ES-mx'], 'es'],
      [['es-419'], 'es'],
      [['en-US', 'es-US'], 'en'], // the first choice counts
      [['est'], 'en'], // Estonian's three letters are not Spanish
    ] as const) {
      browser([...languages]);
      expect(browserLanguage(), languages.join()).toBe(want);
    }
  });

  it('without a language list, navigator.language; without either, English', () => {
    browser(undefined, 'hi-IN');
    expect(browserLanguage()).toBe('hi');
    browser([], 'hi');
    expect(browserLanguage()).toBe('hi');
    browser(undefined, undefined);
    expect(browserLanguage()).toBe('en');
  });
});

describe('the language a visit starts in', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });
  async function start() {
    vi.resetModules();
    const fresh = await import('./i18n.ts');
    await fresh.loadStartLanguage();
    return fresh.default.language;
  }

  it("the one chosen on the profile, else the browser's", async () => {
    vi.stubGlobal('navigator', { ...navigator, languages: ['hi-IN'] });
    expect(await start()).toBe('hi');
    localStorage.setItem('language', 'en');
    expect(await start()).toBe('en');
    vi.stubGlobal('navigator', { ...navigator, languages: ['en-US'] });
    localStorage.setItem('language', 'hi');
    expect(await start()).toBe('hi');
    localStorage.setItem('language', 'es');
    expect(await start()).toBe('es');
    localStorage.setItem('language', 'fr');
    expect(await start()).toBe('en');
    vi.stubGlobal('navigator', { ...navigator, languages: ['es-MX', 'en'] });
    localStorage.removeItem('language');
    expect(await start()).toBe('es');
  });

  it('English until the Hindi text is here: no half-translated screen, no missing t', async () => {
    localStorage.setItem('language', 'hi');
    vi.resetModules();
    const fresh = await import('./i18n.ts');
    expect(fresh.default.language).toBe('en');
    expect(fresh.default.t('Logout')).toBe('Logout');
    const ready = fresh.loadStartLanguage();
    expect(fresh.default.language).toBe('en');
    await ready;
    expect(fresh.default.language).toBe('hi');
    expect(fresh.default.t('Logout')).toBe(hindiText.Logout);
  });

  it("the browser's when storage refuses to be read (private mode)", async () => {
    vi.stubGlobal('navigator', { ...navigator, languages: ['hi'] });
    vi.stubGlobal('localStorage', {
      getItem: () => {
        throw new DOMException('denied', 'SecurityError');
      },
    });
    expect(await start()).toBe('hi');
  });
});

describe('t', () => {
  it('fills every placeholder, with names of any length, trimmed; own values only', () => {
    expect(i18n.t('{{first}} {{last}}, {{ first }}', { first: 'Riley', last: 'Tester' })).toBe('Riley Tester, Riley');
    expect(i18n.t('Hi {{x}}!', { x: 'you' })).toBe('Hi you!');
    expect(i18n.t('{{toString}} {{}} {{ }}', {})).toBe(' {{}} {{ }}');
    expect(i18n.t('{{a}}', { a: undefined })).toBe('');
    expect(i18n.t('{{a}}', { a: false })).toBe('false');
    expect(i18n.t('{{a}} {{b}}', { a: 1 })).toBe('1 ');
    expect(i18n.t("Don't {{x}}'s # {count}", { x: 'it', count: 2 })).toBe("Don't it's # {count}");
  });

  it('a text with no options is returned as written', () => {
    expect(i18n.t('Logout')).toBe('Logout');
    expect(i18n.t('{{seconds}} s')).toBe(' s');
  });

  it('English never looks in the Hindi dictionary', () => {
    expect(i18n.language).toBe('en');
    expect(i18n.t('Logout')).toBe('Logout');
    expect(hindiText.Logout).toBeTruthy();
  });

  it('choosing the language already shown changes nothing: no re-render', async () => {
    const { Counter, counted } = countRenders();
    render(<Counter />);
    const before = counted.renders;
    await act(() => setLanguage('en'));
    expect(counted.renders).toBe(before);
    await act(() => setLanguage('hi'));
    expect(counted.renders).toBe(before + 1);
    await act(() => setLanguage('hi'));
    expect(counted.renders).toBe(before + 1);
    await act(() => setLanguage('en'));
  });

  it('a screen that is gone is not told of a change', async () => {
    const { Counter, counted } = countRenders();
    // React itself ignores a change told to an unmounted screen, so its renders alone would not
    // show a listener left behind (a leak): what the screen's listener is told is counted too.
    let told = 0;
    const onChange = i18n.onChange;
    const spy = vi.spyOn(i18n, 'onChange').mockImplementation((listener) =>
      onChange(() => {
        told++;
        listener();
      }),
    );
    const { unmount } = render(<Counter />);
    expect(spy).toHaveBeenCalled();
    unmount();
    spy.mockRestore();
    const before = counted.renders;
    await act(() => setLanguage('hi'));
    await act(() => setLanguage('en'));
    expect(counted.renders).toBe(before);
    expect(told).toBe(0);
  });

  it('the Hindi text is loaded once', async () => {
    expect(await loadHindi()).toBe(await loadHindi());
  });
});

describe('what Hindi downloads', () => {
  afterEach(() => {
    vi.doUnmock('./hindi.ts');
    vi.resetModules();
  });
  const fontInStack = () => 'devanagari' in document.documentElement.dataset;

  it('Hindi shows with its Devanagari font in the stack; an English visit never loads it', async () => {
    delete document.documentElement.dataset.devanagari;
    vi.resetModules();
    const fresh = await import('./i18n.ts');
    await fresh.setLanguage('en');
    expect(fresh.default.language).toBe('en');
    expect(fontInStack()).toBe(false);
    await fresh.setLanguage('hi');
    expect(fresh.default.language).toBe('hi');
    expect(fontInStack()).toBe(true);
    expect(document.documentElement.lang).toBe('hi');
    await fresh.setLanguage('en');
  });

  // jsdom has no FontFace: a stand-in records the faces added and lets each load when told.
  it("Hindi waits for every weight's Devanagari face, registered with the subset's unicode range", async () => {
    const faces: { family: string; source: string; weight?: string; unicodeRange?: string; done: () => void }[] = [];
    class FakeFontFace {
      readonly loaded: Promise<this>;
      constructor(family: string, source: string, descriptors: FontFaceDescriptors) {
        let done!: () => void;
        this.loaded = new Promise<void>((resolve) => (done = resolve)).then(() => this);
        faces.push({ family, source, ...descriptors, done });
      }
      load() {
        return this.loaded;
      }
    }
    const added: unknown[] = [];
    vi.stubGlobal('FontFace', FakeFontFace);
    Object.defineProperty(document, 'fonts', {
      configurable: true,
      value: { add: (f: unknown) => added.push(f), delete: () => true },
    });
    try {
      delete document.documentElement.dataset.devanagari;
      vi.resetModules();
      const fresh = await import('./i18n.ts');
      const switching = fresh.setLanguage('hi');
      await vi.waitFor(() => expect(faces).toHaveLength(4));
      expect(added).toHaveLength(4);
      expect(faces.map((f) => f.weight)).toEqual(['400', '500', '600', '700']);
      for (const f of faces) {
        expect(f.family).toBe('Noto Sans Devanagari');
        expect(f.unicodeRange).toMatch(/^U\+0900-097F,/);
        expect(f.source).toMatch(/devanagari-devanagari-\d00-normal.*\.woff2/);
      }
      for (const f of faces.slice(0, 3)) f.done();
      await new Promise((r) => setTimeout(r, 20));
      // Three faces here, one still loading: still English, and the family not in the stack.
      expect(fresh.default.language).toBe('en');
      expect(fontInStack()).toBe(false);
      faces[3]!.done();
      await switching;
      expect(fresh.default.language).toBe('hi');
      expect(fontInStack()).toBe(true);
      await fresh.setLanguage('en');
    } finally {
      vi.unstubAllGlobals();
      delete (document as { fonts?: unknown }).fonts;
    }
  });

  it('offline, the screen stays in its language; a later try loads Hindi', async () => {
    vi.resetModules();
    vi.doMock('./hindi.ts', () => {
      throw new TypeError('Failed to fetch dynamically imported module');
    });
    const fresh = await import('./i18n.ts');
    await fresh.setLanguage('hi'); // resolves: no unhandled error
    expect(fresh.default.language).toBe('en');
    expect(fresh.default.t('Logout')).toBe('Logout');
    expect(document.documentElement.lang).not.toBe('hi');
    vi.doUnmock('./hindi.ts');
    await fresh.setLanguage('hi');
    expect(fresh.default.language).toBe('hi');
    expect(fresh.default.t('Logout')).toBe(hindiText.Logout);
    await fresh.setLanguage('en');
  });
});

/** The `{{name}}` interpolation of decision 005, which every catalog text that is not a count's forms keeps. */
const filled = (text: string, values: Record<string, unknown>) =>
  text.replace(/\{\{(.+?)\}\}/g, (_, name: string) => String(values[name.trim()]));
const PLURAL = /\{(\w+), plural, /;

describe('counts: plural forms by the language’s rules', () => {
  afterEach(() => setLanguage('en'));

  it('says "1 session on the map", and every count in English and Hindi', async () => {
    expect(i18n.t('{{count}} sessions on the map', { count: 1 })).toBe('1 session on the map');
    expect(i18n.t('{{count}} sessions on the map', { count: 2 })).toBe('2 sessions on the map');
    expect(i18n.t('{{count}} sessions on the map', { count: 0 })).toBe('0 sessions on the map');
    expect(i18n.t('{{n}} spaces', { n: 1 })).toBe('1 space');
    expect(i18n.t('{{n}} spaces', { n: 12 })).toBe('12 spaces');
    expect(i18n.t('{{n}} free minutes are not charged', { n: 1 })).toBe('1 free minute is not charged');
    expect(i18n.t('{{n}} free minutes are not charged', { n: 5 })).toBe('5 free minutes are not charged');
    expect(i18n.t('Paid {{amount}} · {{n}} minutes', { amount: '$2.00', n: 1 })).toBe('Paid $2.00 · 1 minute');
    expect(i18n.t('Your parking in zone {{zone}} ends in {{n}} minutes.', { zone: '101', n: 1 })).toBe(
      'Your parking in zone 101 ends in 1 minute.',
    );
    expect(i18n.t('Auto Start: {{plate}} for {{minutes}} minutes', { plate: 'ABC', minutes: 60 })).toBe(
      'Auto Start: ABC for 60 minutes',
    );
    await setLanguage('hi');
    expect(i18n.t('{{count}} sessions on the map', { count: 1 })).toBe('मानचित्र पर 1 सत्र');
    expect(i18n.t('{{n}} spaces', { n: 1 })).toBe('1 जगह');
    expect(i18n.t('{{n}} spaces', { n: 12 })).toBe('12 जगहें');
    expect(i18n.t('{{n}} free minutes are not charged', { n: 1 })).toBe('1 मुफ़्त मिनट का शुल्क नहीं लिया गया');
    expect(i18n.t('{{n}} free minutes are not charged', { n: 5 })).toBe('5 मुफ़्त मिनटों का शुल्क नहीं लिया गया');
    // Hindi's "one" is 0 and 1 (CLDR).
    expect(i18n.t('{{n}} spaces', { n: 0 })).toBe('0 जगह');
  });

  it('Spanish counts: "1 sesión", "2 sesiones", and 0 takes the plural', async () => {
    await setLanguage('es');
    expect(document.documentElement.lang).toBe('es');
    expect(i18n.t('{{count}} sessions on the map', { count: 1 })).toBe('1 sesión en el mapa');
    expect(i18n.t('{{count}} sessions on the map', { count: 2 })).toBe('2 sesiones en el mapa');
    expect(i18n.t('{{count}} sessions on the map', { count: 0 })).toBe('0 sesiones en el mapa');
    expect(i18n.t('{{n}} spaces', { n: 1 })).toBe('1 espacio');
    expect(i18n.t('{{n}} spaces', { n: 12 })).toBe('12 espacios');
    expect(i18n.t('Paid {{amount}} · {{n}} minutes', { amount: '$2.00', n: 1 })).toBe('Pagó $2.00 · 1 minuto');
    expect(i18n.t('Your parking in zone {{zone}} ends in {{n}} minutes.', { zone: '101', n: 15 })).toBe(
      'Su estacionamiento en la zona 101 termina en 15 minutos.',
    );
    expect(i18n.t('{{count}} zones here: zoom in', { count: 1200 })).toBe('1,200 zonas aquí: acerque el mapa');
    expect(i18n.t('Hello, {{name}}', { name: 'Riley' })).toBe('Hola, Riley');
  });

  it('writes the count in the language’s number format', async () => {
    expect(i18n.t('{{count}} zones here: zoom in', { count: 1200 })).toBe('1,200 zones here: zoom in');
    await setLanguage('hi');
    expect(i18n.t('{{count}} zones here: zoom in', { count: 123456 })).toBe('यहाँ 1,23,456 ज़ोन: ज़ूम इन करें');
  });

  it('every count ({{count}} in a text the app shows) has its forms in English and in Hindi', () => {
    const counts = [...usedKeys()].filter((k) => k.includes('{{count}}'));
    expect(counts.length).toBeGreaterThan(0);
    expect(counts.filter((k) => !/\{count, plural, /.test(englishForms[k] ?? ''))).toEqual([]);
    expect(counts.filter((k) => !/\{count, plural, /.test(hindiText[k] ?? ''))).toEqual([]);
  });

  it('every count has Spanish forms on the same value as the English forms, each with one and other', () => {
    const counts = [...usedKeys()].filter((k) => k.includes('{{count}}'));
    expect(counts.filter((k) => !/\{count, plural, /.test(spanishText[k] ?? ''))).toEqual([]);
    for (const key of Object.keys(englishForms)) {
      expect(PLURAL.exec(spanishText[key] ?? '')?.[1], `${key}: Spanish forms`).toBe(
        PLURAL.exec(englishForms[key]!)?.[1],
      );
      expect(spanishText[key], key).toMatch(/ one \{.*\} other \{/);
    }
  });

  it('every other Spanish text reads as it is written, its placeholders filled', async () => {
    await setLanguage('es');
    const texts = Object.entries(spanishText).filter(([, text]) => text !== '' && !PLURAL.test(text));
    expect(texts.length).toBeGreaterThan(1000);
    for (const [key, text] of texts) {
      const names = Object.fromEntries([...text.matchAll(/\{\{\s*(.+?)\s*\}\}/g)].map((m) => [m[1]!, `«${m[1]!}»`]));
      expect(i18n.t(key, names), key).toBe(filled(text, names));
    }
  });

  it('a count with English forms has Hindi forms on the same value, each with one and other', () => {
    const used = usedKeys();
    expect(Object.keys(englishForms).filter((k) => !used.has(k))).toEqual([]);
    for (const [key, english] of Object.entries(englishForms)) {
      const [, name] = PLURAL.exec(english) ?? [];
      expect(name, `${key}: English forms`).toBeDefined();
      expect(key, `${key}: the key names the count`).toContain(`{{${name!}}}`);
      expect(PLURAL.exec(hindiText[key] ?? '')?.[1], `${key}: Hindi forms`).toBe(name);
      for (const text of [english, hindiText[key]!]) expect(text, key).toMatch(/ one \{.*\} other \{/);
    }
  });

  it('every other Hindi text reads as it is written, its placeholders filled', async () => {
    await setLanguage('hi');
    const texts = Object.entries(hindiText).filter(([, text]) => text !== '' && !PLURAL.test(text));
    expect(texts.length).toBeGreaterThan(500);
    for (const [key, text] of texts) {
      const names = Object.fromEntries([...text.matchAll(/\{\{\s*(.+?)\s*\}\}/g)].map((m) => [m[1]!, `«${m[1]!}»`]));
      expect(i18n.t(key, names), key).toBe(filled(text, names));
    }
  });
});

describe('numbers and money in the reader’s language', () => {
  afterEach(() => setLanguage('en'));

  it('groups and writes decimals as English does, and as Hindi does', async () => {
    expect(formatNumber(1234567.5)).toBe('1,234,567.5');
    expect(formatCurrency(1234.5, 'USD')).toBe('$1,234.50');
    expect(formatCurrency(0.5, 'USD')).toBe('$0.50');
    await setLanguage('hi');
    expect(formatNumber(1234567.5)).toBe('12,34,567.5');
    expect(formatCurrency(123456.7, 'USD')).toBe('$1,23,456.70');
    expect(formatCurrency(12, 'INR')).toBe('₹12.00');
  });

  it('Spanish (es-US) writes numbers and dollars as US Spanish does', async () => {
    await setLanguage('es');
    expect(formatNumber(1234567.5)).toBe('1,234,567.5');
    expect(formatCurrency(1234.5, 'USD')).toBe('$1,234.50');
    expect(formatCurrency(0.5, 'USD')).toBe('$0.50');
  });
});

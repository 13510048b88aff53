import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { act, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MESSAGES, PARKING_MESSAGES, QUICK_PARK_MESSAGES, SPEC_MESSAGES, SUPPORT_MESSAGES, VEHICLE_MESSAGES, WALLET_MESSAGES, WALLET_TEXTS } from '@parkit/contract';
import i18n, { loadHindi, setLanguage, useTranslation } from './i18n.ts';

const hindi = await loadHindi();

const SRC = join(__dirname, '..');

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

describe('i18n', () => {
  it('has a Hindi translation for every string the app translates', () => {
    const missing = [...usedKeys()].filter((k) => !(k in hindi));
    expect(missing).toEqual([]);
  });

  it('has a Hindi translation for every server and validation message', () => {
    const messages = [
      ...Object.values(MESSAGES),
      ...Object.values(SPEC_MESSAGES),
      ...Object.values(VEHICLE_MESSAGES),
      ...Object.values(WALLET_MESSAGES),
      ...Object.values(WALLET_TEXTS),
      ...Object.values(PARKING_MESSAGES),
      ...Object.values(QUICK_PARK_MESSAGES),
      ...Object.values(SUPPORT_MESSAGES),
    ];
    expect(messages.filter((m) => !(m in hindi))).toEqual([]);
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
    expect(i18n.t(key)).toBe(key); // nothing given: left as written
    expect(i18n.t('{{a}} and {{ b }}', { a: '{{b}}', b: 2 })).toBe('{{b}} and 2'); // values are not read again
    await setLanguage('hi');
    try {
      expect(hindi[key]).toContain('{{seconds}}');
      expect(i18n.t(key, { seconds: 7 })).toBe(hindi[key]!.replace('{{seconds}}', '7'));
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
    expect(screen.getByRole('heading').textContent).toBe(hindi['Unexpected Application Error!']);
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

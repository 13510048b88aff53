import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MESSAGES, PARKING_MESSAGES, QUICK_PARK_MESSAGES, SPEC_MESSAGES, SUPPORT_MESSAGES, VEHICLE_MESSAGES, WALLET_MESSAGES, WALLET_TEXTS } from '@parkit/contract';
import i18n, { hindi, setLanguage } from './i18n.ts';

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
});

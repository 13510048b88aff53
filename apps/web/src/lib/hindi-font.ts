import unicode from '@fontsource/noto-sans-devanagari/unicode.json';
import w400 from '@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-400-normal.woff2?url';
import w500 from '@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-500-normal.woff2?url';
import w600 from '@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-600-normal.woff2?url';
import w700 from '@fontsource/noto-sans-devanagari/files/noto-sans-devanagari-devanagari-700-normal.woff2?url';

/**
 * Noto Sans Devanagari's Devanagari subset in the weights the screens use (a bolder text,
 * font-extrabold or font-black, is drawn from 700), imported by i18n.ts only for Hindi readers and
 * by the language control for its label. Each face covers only the subset's unicode-range (the
 * package's unicode.json): Latin text stays in the system font.
 */
const FILES = { 400: w400, 500: w500, 600: w600, 700: w700 } as const;
export type HindiWeight = keyof typeof FILES;
export const HINDI_WEIGHTS = [400, 500, 600, 700] as const satisfies readonly HindiWeight[];
export const DEVANAGARI_FAMILY = 'Noto Sans Devanagari';

const loading = new Map<HindiWeight, Promise<unknown>>();

/** One weight's face, added to the page's fonts and loaded once. */
function load(weight: HindiWeight): Promise<unknown> {
  let face = loading.get(weight);
  if (!face) {
    const f = new FontFace(DEVANAGARI_FAMILY, `url(${FILES[weight]}) format('woff2')`, {
      weight: String(weight),
      style: 'normal',
      display: 'swap',
      unicodeRange: unicode.devanagari,
    });
    document.fonts.add(f);
    // A face that did not come (offline) leaves the text to the device's fonts, and is tried again.
    face = f.load().catch(() => {
      document.fonts.delete(f);
      loading.delete(weight);
    });
    loading.set(weight, face);
  }
  return face;
}

/**
 * Resolves once each of `weights`' faces has loaded (or failed), and only then puts the family in
 * the page's font stack, first (index.css, `html[data-devanagari]`). Hindi is shown only after it
 * (i18n.ts): on a machine with no Devanagari font of its own, Chromium kept the missing-glyph boxes
 * of a text laid out while the family, behind the system font, was still loading, and of texts
 * styled the same afterwards. Laid out with the loaded face first, it never falls back.
 */
export async function hindiFontReady(weights: readonly HindiWeight[] = HINDI_WEIGHTS): Promise<void> {
  if (typeof FontFace === 'function' && 'fonts' in document) await Promise.all(weights.map(load));
  document.documentElement.dataset.devanagari = '';
}

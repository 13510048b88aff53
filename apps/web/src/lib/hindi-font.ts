// Noto Sans Devanagari in the weights the screens use: loaded by i18n.ts only for Hindi. The
// browser downloads a face only when a Devanagari glyph needs it.
import '@fontsource/noto-sans-devanagari/devanagari-400.css';
import '@fontsource/noto-sans-devanagari/devanagari-500.css';
import '@fontsource/noto-sans-devanagari/devanagari-600.css';
import '@fontsource/noto-sans-devanagari/devanagari-700.css';
